"""Build the Acme Cloud support demo data set: corpus.jsonl, questions.jsonl, golden.csv.

Run from the repository root with any Python 3.11 (standard library only):

    python data/support_demo/build_dataset.py

Acme Cloud is a fictional SaaS company, written for ragmetrics. Every chunk below was
written by hand (a few families, such as the per-tier API limits and the per-region tax
pages, are filled from one template per family, the way real help centres are). The
output is deterministic: same script, same bytes.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS: list[dict] = []


def doc(doc_id: str, title: str, text: str) -> None:
    CORPUS.append({"doc_id": doc_id, "title": title, "text": " ".join(text.split())})


# --------------------------------------------------------------------------- plans
doc("plans-overview", "Acme Cloud plans: overview",
    """Acme Cloud comes in five plans: Free, Starter, Team, Business and Enterprise. Free is
    for individuals and small groups of up to 3 people sharing 5 GB. Starter costs $8 per user
    per month, Team $15 and Business $29; Enterprise is priced by quote with a minimum of 50
    seats. Paying yearly instead of monthly saves 20% on Starter, Team and Business. Every paid
    plan includes version history, shared links with passwords and email support.""")
doc("plans-free", "Plans › Free",
    """The Free plan is free forever and needs no credit card. A Free workspace holds up to 3
    members and 5 GB of storage in total, files up to 250 MB each and 7 days of version
    history. API access is limited to 60 requests per minute. Free workspaces get help from the
    community forum and email support with a response within 3 business days. You can upgrade
    at any time from Settings › Billing.""")
doc("plans-starter", "Plans › Starter",
    """Starter is built for freelancers and small teams. It costs $8 per user per month, or
    $76.80 per user per year on annual billing. Each user gets 100 GB of storage, files can be
    up to 2 GB, and version history goes back 30 days. Starter adds password-protected links,
    link expiry dates and 300 API requests per minute. Support is by email with a first reply
    within 1 business day.""")
doc("plans-team", "Plans › Team",
    """Team costs $15 per user per month ($144 per user per year when billed annually). Each user
    gets 1 TB, files can be up to 10 GB and version history covers 90 days. Team adds admin
    roles, enforced two-factor authentication, guest users, shared team folders and 1,000 API
    requests per minute. Team workspaces can chat with support during business hours, with a
    first reply within 8 business hours.""")
doc("plans-business", "Plans › Business",
    """Business costs $29 per user per month, or $278.40 per user per year on annual billing.
    Storage is pooled at 5 TB per user, files can be up to 50 GB and version history keeps one
    year. Business adds SAML single sign-on, SCIM provisioning, audit logs kept for 180 days,
    data residency in the EU, US or Australia, a 99.9% uptime SLA and 3,000 API requests per
    minute. Support answers within 4 hours, 24 hours a day on weekdays.""")
doc("plans-enterprise", "Plans › Enterprise",
    """Enterprise is for organisations with 50 or more seats and is priced by quote. It includes
    everything in Business plus unlimited storage, files up to 250 GB, unlimited version
    history, a 99.95% uptime SLA, IP allowlisting, domain capture, audit logs kept for 3 years, a
    signed Business Associate Agreement for HIPAA workloads and a named technical account
    manager. Priority 1 incidents get a response within 1 hour, 24/7, including by phone.
    Contact sales to get a quote.""")
doc("plans-compare-storage", "Compare plans: storage and file limits",
    """Storage and file limits by plan: Free has 5 GB for the whole workspace and a 250 MB
    maximum file size. Starter has 100 GB per user and 2 GB per file. Team has 1 TB per user and
    10 GB per file. Business pools 5 TB per user across the workspace and allows 50 GB per file.
    Enterprise has no storage cap and allows 250 GB per file. Storage on Starter and Team is not
    pooled: one user cannot use another user's unused space.""")
doc("plans-compare-history", "Compare plans: version history and trash",
    """How long earlier versions of a file are kept depends on the plan: 7 days on Free, 30 days
    on Starter, 90 days on Team, one year on Business and without limit on Enterprise. Deleted
    files stay in the trash for 30 days on every plan, after which they are permanently
    removed. Admins on Business and Enterprise can restore a deleted member's files for up to
    90 days after the member is removed.""")
doc("plans-upgrade", "Upgrading your plan",
    """To upgrade, go to Settings › Billing › Change plan and pick the new plan. The upgrade
    takes effect immediately and the new features are available at once. You are charged a
    prorated amount for the rest of the current billing period: for example, moving 10 seats
    from Team to Business halfway through a monthly cycle costs about half of the price
    difference, 10 × ($29 − $15) ÷ 2 = $70. Only the workspace owner and billing admins can
    change the plan.""")
doc("plans-downgrade", "Downgrading your plan",
    """A downgrade takes effect at the end of your current billing period, not immediately, so
    you keep the higher plan's features until then. No refund or credit is given for the
    remaining time. Before the downgrade, check the lower plan's limits: if your workspace uses
    more storage than the new plan allows, uploads are blocked until you delete files, and
    features such as SSO or audit logs switch off on the downgrade date. You can cancel a
    scheduled downgrade from Settings › Billing.""")
doc("plans-downgrade-free", "Downgrading to Free: what changes",
    """When a paid workspace moves to Free, nothing is deleted. Members beyond the first 3
    become read-only until you remove members, and if the workspace holds more than 5 GB, new
    uploads stop until you are under the limit. Version history older than 7 days is hidden, not
    erased, and comes back if you upgrade again within 90 days. Shared links with passwords or
    expiry dates keep working, but you can no longer create new ones.""")
doc("plans-monthly-annual", "Switching between monthly and annual billing",
    """You can switch from monthly to annual billing at any time in Settings › Billing › Billing
    cycle. The switch happens immediately: the unused part of your monthly payment is credited
    and the annual price, 20% lower per month, is charged for the next 12 months. Switching from
    annual back to monthly is possible only at renewal; schedule it up to the day before the
    renewal date and the change applies from the next period.""")
doc("plans-price-change-2024", "Price changes on 1 March 2024",
    """On 1 March 2024 Acme Cloud changed its prices. Team went from $12 to $15 per user per
    month and Business from $25 to $29. Starter stayed at $8. Customers who subscribed before 1
    March 2024 keep their old price until their first renewal after 1 September 2024; we emailed
    every workspace owner 60 days before their new price applied. Annual customers keep the old
    price until the end of the year already paid for.""")
doc("plans-legacy-pro", "Legacy plan: Pro (retired)",
    """The Pro plan was retired on 1 March 2024 and can no longer be bought. Workspaces still on
    Pro keep it, at $10 per user per month, for as long as the subscription stays active. Pro
    includes 500 GB per user, 5 GB files and 60 days of version history. If you change plans,
    you cannot return to Pro later. Most Pro workspaces move to Team, which costs more but adds
    admin roles and 1 TB per user.""")

# --------------------------------------------------------------------------- billing
doc("billing-cycle", "How billing works",
    """Acme Cloud bills in advance. Monthly subscriptions renew on the same day each month as the
    day you first subscribed; if that day does not exist in a month (for example the 31st), the
    charge happens on the last day of that month. Annual subscriptions renew 12 months after
    the start date. The amount is the plan price multiplied by the number of paid seats, plus
    any tax that applies to your billing address.""")
doc("billing-payment-methods", "Accepted payment methods",
    """We accept Visa, Mastercard, American Express, Discover and JCB cards, and PayPal for
    monthly and annual plans. Customers in the eurozone can pay by SEPA Direct Debit. US
    customers on annual plans of $5,000 or more can pay by ACH bank transfer, and any annual
    invoice of $5,000 or more can be paid by wire transfer. We do not accept cheques,
    cryptocurrency or prepaid gift cards.""")
doc("billing-update-card", "Updating your credit card",
    """To change the card we charge, open Settings › Billing › Payment method and choose Replace
    card. The new card is checked with a temporary authorisation of $1 (or the same amount in
    your billing currency), which is released within a few days. The new card is used from the
    next charge. If a payment has already failed, replacing the card triggers an immediate
    retry of the outstanding invoice.""")
doc("billing-currency", "Billing currencies",
    """Subscriptions can be billed in US dollars, euros, British pounds, Canadian dollars,
    Australian dollars or Japanese yen. The currency is set from your billing country when you
    first subscribe. It cannot be changed on an active subscription: to switch currency,
    contact support before your renewal date and we will move the subscription to the new
    currency at renewal. Prices in other currencies are fixed price points, not converted at
    the daily exchange rate.""")
doc("billing-failed-payment", "What happens when a payment fails",
    """If a renewal payment fails, we email the billing contact and retry the charge 3, 5 and 7
    days later. During this time the workspace works normally. If the invoice is still unpaid
    14 days after the first attempt, the workspace is marked past due and a banner is shown to
    all admins. After 21 days unpaid, the workspace is downgraded to Free; your files are kept
    and the plan comes back as soon as the invoice is paid.""")
doc("billing-failed-payment-2022", "What happens when a payment fails (before 2024)",
    """This article describes our previous process, which applied until 31 December 2023. If a
    payment failed, we retried once after 3 days. If the second attempt also failed, the
    workspace was suspended after 7 days and members could not open files until the balance
    was paid. Suspended workspaces were deleted after 60 days. This process has been replaced;
    see What happens when a payment fails.""")
doc("billing-card-declined", "Why was my card declined?",
    """Most declines come from the card issuer, not from Acme Cloud. Common reasons are an
    expired card, a billing address that does not match the one your bank holds, a card that
    blocks international or online payments (our payments are processed in Ireland for
    customers outside the US), or a 3-D Secure check that was not completed. Ask your bank to
    allow charges from ACME CLOUD and retry the payment from Settings › Billing.""")
doc("billing-double-charge", "I was charged twice",
    """If you see two charges for the same amount, one of them is usually a pending authorisation
    that your bank will drop within 3 to 7 days, for example the $1 check made when a card is
    added or a retry after a failed payment. Compare your statement with Settings › Billing ›
    Invoices: each real charge has an invoice number. If two invoices were paid for the same
    period, contact billing support with both invoice numbers and we will refund the duplicate.""")
doc("billing-unexpected-charge", "I don't recognise a charge from Acme Cloud",
    """Charges from us appear on statements as ACME CLOUD or ACMECLOUD.EXAMPLE. A charge you did
    not expect is most often an annual renewal, seats added by an admin, or a trial that
    converted to a paid plan. Ask your workspace owner to check Settings › Billing › Invoices.
    If nobody in your organisation has an Acme Cloud account, email billing support with the
    last four digits of the card, the date and the amount.""")
doc("billing-contact", "Changing the billing contact",
    """Invoices, receipts and payment reminders go to the workspace's billing contact, which is
    the owner by default. To send them to someone else, such as your accounts payable inbox, go
    to Settings › Billing › Billing contact and add up to 3 email addresses. Billing contacts do
    not need an Acme Cloud seat. To let someone change plans and payment methods, make them a
    billing admin instead.""")
doc("billing-admin-role", "Billing admins",
    """A billing admin can view and download invoices, change the payment method, update the
    billing address and tax ID, and change the plan or seat count. Billing admins cannot manage
    members, files or security settings unless they are also admins. A billing admin role can
    be given to an existing member from Settings › Members, and it does not use an extra paid
    seat if the person only needs billing access.""")
doc("billing-invoice-pay", "Paying by invoice (net 30)",
    """Annual subscriptions of $5,000 or more, and all Enterprise contracts, can be paid by
    invoice instead of card. We send the invoice when the subscription starts and payment is due
    within 30 days. You can pay by wire transfer or, in the US, by ACH. Always quote the invoice
    number (for example INV-2024-004512) as the payment reference, or the payment cannot be
    matched automatically and may take up to 10 business days to apply.""")
doc("billing-purchase-order", "Adding a purchase order number",
    """If your company needs a purchase order (PO) number on invoices, add it in Settings ›
    Billing › Invoice details › PO number. The PO number appears on every invoice issued after
    you save it. To add a PO number to an invoice that has already been issued, contact billing
    support with the invoice number; we can reissue invoices from the last 90 days.""")
doc("billing-wire-details", "Wire transfer details",
    """Bank details for wire transfers are printed at the bottom of each invoice that is payable
    by transfer. Payments in US dollars go to our US account and payments in euros or pounds to
    our account in Ireland. Bank fees are paid by the sender: if a transfer arrives short
    because of intermediary fees, the difference remains open on the invoice. We will never
    email you to say our bank details have changed; treat any such email as fraud.""")
doc("billing-app-store", "Subscriptions bought in the iOS or Android app",
    """If you subscribed from the Acme Cloud app on iPhone or iPad, Apple bills you, and if you
    subscribed from the Android app, Google Play bills you. These subscriptions are managed in
    your Apple ID or Google Play settings, not in Acme Cloud. Prices in the app stores can
    differ from our website because of store fees. Promo codes, student discounts and annual
    invoices are not available for app store subscriptions.""")

# --------------------------------------------------------------------------- invoices
doc("invoices-find", "Where to find your invoices",
    """All invoices and receipts are in Settings › Billing › Invoices, newest first. Each invoice
    can be downloaded as a PDF and has a number in the form INV-YYYY-NNNNNN, for example
    INV-2024-004512. Only the owner, admins and billing admins can see this page. A copy of
    each invoice is also emailed to the billing contact on the day it is issued.""")
doc("invoices-numbering", "Invoice and credit note numbers",
    """Invoice numbers start with INV, the year of issue and a six-digit sequence, such as
    INV-2025-000318. Credit notes, which cancel or reduce an invoice, start with CN, for
    example CN-2025-000041, and name the invoice they correct. Receipts for card payments use the
    invoice number followed by -R. When you contact billing support about a charge, quoting the
    invoice number is the fastest way for us to find it.""")
doc("invoices-edit-details", "Changing the company name or address on invoices",
    """The company name, address and tax ID printed on invoices come from Settings › Billing ›
    Invoice details. Changes apply to invoices issued after you save them. Invoices already
    issued cannot be edited, because they are legal documents, but billing support can cancel an
    invoice from the last 90 days with a credit note and issue a corrected invoice. Each
    invoice can be reissued once.""")
doc("invoices-add-vat-id", "Adding a VAT or GST number to invoices",
    """To add your VAT, GST or other tax registration number, go to Settings › Billing › Invoice
    details › Tax ID and choose your country. EU VAT numbers are checked against the VIES
    database when you save them; if the check fails, the number is not saved. Once a valid
    number is saved, it is printed on future invoices and, where the law allows, tax is no
    longer charged (see the tax article for your country).""")
doc("invoices-vat-missing-past", "My VAT number is missing from a past invoice",
    """If you added your VAT number after an invoice was issued, that invoice still shows no VAT
    number and may include VAT. Billing support can reissue invoices from the last 90 days with
    your VAT number: we cancel the original with a credit note (CN-...) and issue a new invoice,
    and if VAT was charged that should have been reverse charged, the VAT amount is refunded to
    your payment method within 10 business days.""")
doc("invoices-receipt-vs-invoice", "Invoices and receipts",
    """An invoice is the request for payment and lists the plan, seats, period, tax and total. A
    receipt confirms that a card or PayPal payment was received; it uses the invoice number
    followed by -R, for example INV-2024-004512-R. Customers paying by transfer receive the
    invoice first and a payment confirmation by email when the money arrives. Both documents can
    be downloaded from Settings › Billing › Invoices.""")
doc("invoices-resend", "Resending an invoice by email",
    """To send an invoice again, open Settings › Billing › Invoices, click the invoice and choose
    Email a copy. You can type any email address; the recipient does not need an Acme Cloud
    account. Invoice emails come from billing@acmecloud.example; if they do not arrive, check
    your spam folder or ask your IT team to allow that address.""")
doc("invoices-proration-lines", "Reading prorated lines on an invoice",
    """When seats are added or the plan changes in the middle of a billing period, the next
    invoice shows prorated lines. A line such as Team × 3 seats, 12 Jun – 30 Jun, $25.50 is the
    charge for the added seats for the rest of the period. A negative line is a credit for time
    you no longer use, for example after an upgrade replaces your old plan. The total is the sum
    of all lines plus tax.""")

# --------------------------------------------------------------------------- taxes
doc("tax-overview", "Sales tax, VAT and GST: overview",
    """Acme Cloud charges sales tax, VAT or GST where the law requires it, based on the billing
    address of your workspace, not on where your members are. The tax rate and amount are shown
    at checkout and on every invoice as a separate line. Business customers can often avoid
    being charged tax by adding a valid tax registration number; see the article for your
    country. Tax is never charged on the Free plan.""")
doc("tax-us", "Sales tax in the United States",
    """In the United States we charge sales tax on subscriptions billed to addresses in states
    that tax software as a service, including New York, Texas, Washington, Pennsylvania and
    Ohio. The rate includes state and local taxes for your billing ZIP code, so two customers
    in the same state can pay different rates. Customers in states that do not tax SaaS, such
    as California and Florida, are not charged sales tax.""")
doc("tax-us-exemption", "US tax-exempt organisations",
    """If your organisation is exempt from US sales tax, for example a school, a government body
    or a 501(c)(3) nonprofit in a state that exempts it, upload your exemption certificate in
    Settings › Billing › Invoice details › Tax exemption. Our team reviews certificates within 2
    business days. Once approved, tax is removed from future invoices. Sales tax already paid on
    invoices from the last 90 days can be refunded after approval.""")
doc("tax-eu", "VAT in the European Union",
    """For customers in the EU, VAT depends on whether you are a business. Businesses that add a
    valid VAT number are not charged VAT: the invoice says reverse charge and you account for
    VAT in your own return. Customers without a VAT number are charged VAT at the rate of their
    country, for example 19% in Germany, 20% in France or 21% in the Netherlands. VAT numbers
    are validated through VIES.""")
doc("tax-ireland", "VAT in Ireland",
    """Our European billing entity, Acme Cloud Ltd., is registered in Ireland. Because of this,
    Irish customers are charged Irish VAT at 23% even when they add an Irish VAT number: the
    reverse charge does not apply to a supplier and customer in the same country. Irish
    businesses can reclaim the VAT in their own VAT return using our invoice, which shows our
    Irish VAT number.""")
doc("tax-uk", "VAT in the United Kingdom",
    """Customers in the United Kingdom are charged UK VAT at 20%. UK businesses that add a valid
    GB VAT number are not charged VAT and their invoices state that the reverse charge applies.
    Northern Ireland addresses are treated as UK addresses for our services. Customers in the
    Channel Islands and the Isle of Man should select their territory as the billing country;
    Jersey and Guernsey customers are not charged UK VAT.""")
doc("tax-switzerland", "VAT in Switzerland and Norway",
    """Swiss customers are charged Swiss VAT at 8.1% and customers in Norway are charged
    Norwegian VAT at 25%, whether or not they are registered for VAT, because Acme Cloud is
    registered in both countries as a foreign supplier. Registered businesses can reclaim the
    VAT as input tax. Invoices show our Swiss VAT number (CHE) or Norwegian VOEC number.""")
doc("tax-canada", "GST, HST and QST in Canada",
    """Canadian customers are charged GST or HST based on their province: 5% GST in Alberta, 13%
    HST in Ontario and 15% HST in Nova Scotia, for example. Customers in Quebec are also charged
    9.975% QST. Businesses registered for GST/HST can add their registration number, but tax is
    still charged because we are registered under the simplified regime; registered businesses
    cannot claim input tax credits for it.""")
doc("tax-australia", "GST in Australia",
    """Australian customers are charged 10% GST. If your business is registered for GST and you
    add your ABN in Settings › Billing › Invoice details, we stop charging GST from the next
    invoice, because imported services bought by GST-registered businesses are covered by the
    reverse charge. We cannot refund GST charged before you added your ABN; claim it through
    your business activity statement instead.""")
doc("tax-new-zealand", "GST in New Zealand",
    """New Zealand customers are charged 15% GST. Businesses registered for GST in New Zealand
    can add their GST number in Settings › Billing › Invoice details, after which GST is no
    longer charged and the invoice is zero-rated. Individual customers continue to pay 15% GST
    on every invoice.""")
doc("tax-india", "GST in India",
    """Customers in India are charged 18% IGST on Acme Cloud subscriptions. Businesses that add a
    valid 15-character GSTIN are not charged IGST and account for it under the reverse charge.
    Invoices for Indian customers are issued in US dollars; we do not bill in rupees. Card
    payments from India may require e-mandate approval for automatic renewals above ₹15,000.""")
doc("tax-japan", "Consumption tax in Japan",
    """Customers in Japan are charged 10% Japanese consumption tax on subscriptions billed in yen.
    Acme Cloud is a registered qualified invoice issuer, and our invoices show our registration
    number (T followed by 13 digits) so that business customers can claim input tax credits under
    the qualified invoice system that started on 1 October 2023.""")
doc("tax-exempt-nonprofit-eu", "VAT for charities and nonprofits outside the US",
    """Charities and nonprofits in the EU and UK are generally not exempt from VAT on software
    subscriptions. If your organisation has a VAT number, add it to get the reverse charge like
    any other business. Without a VAT number, VAT is charged at your country's rate. Our
    nonprofit discount applies to the price before tax, so it also reduces the VAT you pay.""")
doc("tax-wrong-country", "Tax was charged for the wrong country",
    """Tax follows the billing address saved in Settings › Billing › Invoice details. If that
    address is wrong, correct it there: the next invoice uses the right country and rate. For
    invoices from the last 90 days, contact billing support; we will reissue them with the
    correct tax and refund any difference. Changing the billing country may also change your
    billing currency at the next renewal.""")

# --------------------------------------------------------------------------- refunds
doc("refund-policy-current", "Refund policy",
    """This policy applies to payments made on or after 1 March 2024. New subscriptions, monthly
    or annual, can be refunded in full if you ask within 14 days of the first payment. Annual
    renewals can be refunded in full if you ask within 7 days of the renewal charge. Apart from
    these cases, payments are not refundable and unused time is not credited when you cancel or
    downgrade; your plan simply stays active until the end of the period you paid for.""")
doc("refund-policy-2022", "Refund policy (archived, 2022)",
    """Archived: this policy applied to payments made between 1 January 2022 and 29 February 2024
    and is kept for reference. Annual plans came with a 30-day money-back guarantee from the
    date of purchase. Monthly plans were not refundable. Annual plans cancelled after 30 days
    received a prorated refund for the remaining whole months, minus a $20 processing fee. See
    the current Refund policy for payments made from 1 March 2024.""")
doc("refund-policy-2019", "Refund policy (archived, 2019)",
    """Archived: this policy applied from 1 June 2019 to 31 December 2021. All plans had a
    60-day money-back guarantee and refunds were issued as account credit unless a cash refund
    was requested in writing. Prorated refunds were available for annual plans at any time.
    This policy is no longer in effect.""")
doc("refund-how-to-request", "How to request a refund",
    """To request a refund, the workspace owner or a billing admin opens Settings › Billing ›
    Invoices, selects the invoice and clicks Request refund. The button appears only while the
    invoice is within the refund window. You can also contact billing support with the invoice
    number. Refunds are approved within 2 business days; if the subscription is cancelled as
    part of the refund, the workspace moves to Free straight away.""")
doc("refund-timing", "How long does a refund take?",
    """Refunds go back to the original payment method. Card refunds appear on your statement in
    5 to 10 business days, depending on your bank. PayPal refunds arrive in 3 to 5 business days.
    SEPA Direct Debit, ACH and wire transfer refunds take 10 to 15 business days and need the
    account details confirmed by billing support. We cannot refund to a different card or
    account than the one that was charged.""")
doc("refund-eu-withdrawal", "Right of withdrawal for consumers in the EU",
    """If you live in the EU and subscribe as a consumer, not for a business, you have a legal
    right to withdraw from the contract within 14 days of subscribing without giving a reason.
    Because the service starts immediately, we may deduct a proportionate amount for the days you
    used it. To withdraw, use Request refund on the invoice or send us the withdrawal form
    linked in your confirmation email. Business customers do not have this right.""")
doc("refund-uk-cancellation", "Cancellation rights for consumers in the UK",
    """UK consumers have 14 days from the day they subscribe to cancel and receive a refund under
    the Consumer Contracts Regulations. If you started using the service during those 14 days,
    we may keep a proportionate amount for the days used. This right does not apply to
    subscriptions bought for a business. After 14 days, our standard Refund policy applies.""")
doc("refund-australia", "Refunds for customers in Australia",
    """Our services come with guarantees that cannot be excluded under the Australian Consumer
    Law. For a major failure with the service, you are entitled to cancel and receive a refund
    for the unused portion, or to compensation for its reduced value. This applies in addition
    to our standard Refund policy. To make a claim, contact billing support and describe the
    problem and when it started.""")
doc("refund-annual-after-window", "Refunds on annual plans after the refund window",
    """After the 14-day window for a new annual plan (or 7 days for a renewal), annual payments
    are not refunded, including when you cancel, remove seats or downgrade. Your plan stays
    active until the end of the paid year. If your circumstances changed, for example your
    company closed, contact billing support: exceptions are reviewed case by case but are not
    guaranteed.""")
doc("refund-forgot-cancel", "I forgot to cancel before my renewal",
    """If your annual plan renewed and you meant to cancel, request a refund within 7 days of the
    renewal charge and you get the full amount back. For monthly plans, renewals are not
    refundable, but you can cancel now so that you are not charged again; the plan stays active
    until the end of the month you paid for. Set a reminder: we email the billing contact 30
    days before every annual renewal.""")
doc("refund-seats-removed", "Refunds when you remove seats",
    """Removing seats does not trigger a refund. On monthly plans, the removed seats stop being
    billed from the next renewal. On annual plans, the seat count is lowered at the next annual
    renewal and you keep paying for the seats until then, though you can assign them to other
    people. If you added seats by mistake, contact billing support within 7 days and we will
    reverse the prorated charge.""")
doc("refund-outage-credit", "Refunds for outages",
    """Outages are compensated with service credits under our SLA, not with cash refunds. Service
    credits are available on Business and Enterprise, and are applied as a discount on a future
    invoice. Free, Starter and Team plans are not covered by an SLA, but if an incident
    affected you badly, contact support; goodwill credits are at our discretion. See Claiming
    an SLA service credit for the steps.""")
doc("refund-chargeback", "Disputes and chargebacks",
    """If you dispute a charge with your bank instead of contacting us, the workspace is
    suspended while the dispute is open and we send the bank the invoice and usage evidence.
    Disputes usually take 60 to 75 days. If you think a charge is wrong, contact billing support
    first: most problems are solved within 2 business days, and a refund we issue directly
    reaches you faster than a chargeback.""")
doc("refund-app-store", "Refunds for App Store and Google Play subscriptions",
    """We cannot refund subscriptions bought through the Apple App Store or Google Play, because
    Apple and Google process those payments. For an App Store purchase, request a refund at
    reportaproblem.apple.com with your Apple ID. For Google Play, open the order in your Google
    Play account and choose Request a refund; Google refunds automatically within 48 hours of
    purchase and decides later requests case by case.""")

# --------------------------------------------------------------------------- cancellation
doc("cancel-how", "How to cancel your subscription",
    """Only the workspace owner or a billing admin can cancel. Open Settings › Billing, click
    Cancel subscription, choose a reason and confirm. You will receive a confirmation email
    with the date your plan ends. The cancellation takes effect at the end of the current
    billing period; until then everyone keeps full access. To cancel immediately with a refund,
    you must be within the refund window and use Request refund instead.""")
doc("cancel-what-happens", "What happens after you cancel",
    """When the paid period ends, the workspace moves to the Free plan. Your files, folders and
    members are kept. If you use more than the Free plan's 5 GB, the workspace becomes
    read-only for uploads until you delete files or upgrade again; everything can still be
    viewed and downloaded. Integrations and API keys that need a paid plan stop working. Nothing
    is deleted unless you delete the workspace.""")
doc("cancel-trial", "Cancelling during a free trial",
    """You do not need to cancel a free trial: if you did not add a payment method, the trial
    simply ends after 14 days and the workspace moves to Free. If you added a card during the
    trial and want to avoid the first charge, open Settings › Billing and click End trial before
    the trial end date shown there. Ending a trial early does not remove the files you
    uploaded.""")
doc("cancel-reactivate", "Reactivating a cancelled subscription",
    """If you cancelled and the plan has not ended yet, open Settings › Billing and click Resume
    subscription: nothing is charged until the normal renewal date. If the plan has already
    ended, choose a plan again from Settings › Billing › Change plan; you are charged from that
    day. Version history and admin settings from your old plan are restored if you come back
    within 90 days.""")
doc("cancel-app-store", "Cancelling a subscription bought on iPhone, iPad or Android",
    """Deleting the app does not cancel an app store subscription. On iPhone or iPad, open
    Settings, tap your name, then Subscriptions, select Acme Cloud and tap Cancel Subscription.
    On Android, open Google Play, tap your profile picture, then Payments & subscriptions ›
    Subscriptions, select Acme Cloud and tap Cancel. You must cancel at least 24 hours before the
    renewal date to avoid the next charge.""")
doc("cancel-vs-delete", "Cancel the subscription or delete the workspace?",
    """Cancelling stops payments but keeps the workspace on the Free plan, with all files. Deleting
    the workspace removes every file, member and setting after a 30-day grace period, and cannot
    be undone after that. If you want to leave Acme Cloud completely, export your data first,
    then cancel the subscription, then delete the workspace from Settings › Workspace › Delete
    workspace. A workspace with an active paid plan cannot be deleted until the plan ends.""")
doc("cancel-delete-workspace", "Deleting a workspace",
    """To delete a workspace, the owner opens Settings › Workspace › Delete workspace and types the
    workspace name to confirm. All members lose access immediately. For 30 days the owner can
    restore the workspace from the link in the confirmation email. After 30 days, files are
    permanently deleted from our primary systems and removed from backups within a further 35
    days. Invoices are kept for 7 years because tax law requires it.""")
doc("cancel-annual-early", "Cancelling an annual plan early",
    """You can cancel an annual plan at any time, but the cancellation takes effect at the end of
    the paid year: the workspace keeps its plan until then and is not charged again. Refunds for
    the unused months are not available after the refund window. If you need to reduce cost
    before the year ends, you can remove unused seats; the lower count applies from your next
    renewal.""")
doc("cancel-owner-left", "Cancelling when the workspace owner has left the company",
    """If the owner has left and nobody else can cancel, an admin can ask support to transfer
    ownership. We need a request from an email address on the company's verified domain, a
    confirmation from a second admin, and, if there is no second admin, a letter on company
    letterhead. The transfer takes 3 to 5 business days. After it, the new owner can cancel or
    change the plan.""")
doc("cancel-retention-offer", "Cancellation offers",
    """When you cancel, we may offer a discount to stay, such as 30% off the next 3 months of a
    monthly plan. Accepting the offer keeps your subscription and applies the discount
    automatically; declining it continues the cancellation. Each workspace can accept a
    cancellation offer once every 12 months, and offers cannot be combined with student or
    nonprofit discounts.""")

# --------------------------------------------------------------------------- trials
doc("trial-how", "Free trial",
    """You can try Team or Business free for 14 days. No credit card is needed to start. A trial
    workspace has all the features of the plan you chose, for up to 25 people. Each person or
    company can start one trial. During the trial, a banner shows the days left, and we email
    the owner 3 days before it ends. You can switch between a Team and a Business trial once
    without restarting the clock.""")
doc("trial-end", "What happens when the trial ends",
    """If you added a payment method, the trial converts to a paid subscription on the last day
    and you are charged for every member in the workspace, monthly unless you chose annual. If
    you did not add a payment method, the workspace moves to the Free plan: trial members beyond
    3 become read-only and uploads stop if you have more than 5 GB. You have 30 days to choose a
    plan and unlock everything.""")
doc("trial-extend", "Extending a free trial",
    """Trials can be extended once by 7 days. Ask for an extension from the trial banner (Need more
    time?) before the trial ends, or contact sales if you are evaluating Enterprise and need a
    longer proof of concept; Enterprise evaluations can run for up to 30 days with a signed
    evaluation agreement. Extensions cannot be given after the trial has ended.""")
doc("trial-2023", "Free trial (before 2024)",
    """This describes the free trial before 15 January 2024. Trials lasted 30 days and required a
    credit card at sign-up. At the end of the trial the card was charged automatically for the
    Team plan unless the trial was cancelled. Trials started before 15 January 2024 kept these
    terms until they ended. Today's trials last 14 days and need no card.""")
doc("trial-charged", "I was charged after my trial",
    """A trial converts to a paid plan only if a payment method was added during the trial. If you
    were charged at the end of a trial you did not mean to continue, you are still within the
    14-day refund window for a new subscription: open Settings › Billing › Invoices, select the
    first invoice and click Request refund. The workspace then moves to the Free plan.""")
doc("trial-seats", "Adding people during a trial",
    """You can invite up to 25 people to a trial workspace. Everyone you invite counts as a seat
    when the trial converts, so remove people who should not be billed before the trial ends.
    Guests invited to single folders do not count toward the 25. If you need more than 25
    people for an evaluation, contact sales about an Enterprise evaluation.""")

# --------------------------------------------------------------------------- discounts
doc("discount-annual", "Annual billing discount",
    """Paying yearly costs 20% less than paying monthly on Starter, Team and Business. For
    example, Team costs $15 per user per month on monthly billing and $12 per user per month
    ($144 per year) on annual billing. The annual discount can be combined with the student,
    education and nonprofit discounts, which are applied first. Enterprise prices are set in
    each contract.""")
doc("discount-student", "Student discount",
    """Students at an accredited university or college get 50% off the Starter and Team plans for
    personal workspaces of up to 5 members. Verify your student status in Settings › Billing ›
    Discounts with your school email address or, if your school email is not recognised, by
    uploading a student ID or enrolment letter dated within the last 3 months. The discount lasts
    12 months and can be renewed each year while you are a student.""")
doc("discount-student-expired", "My student discount expired",
    """Student discounts last 12 months. We email you 30 days before yours ends with a link to
    verify again. If you do not verify, your next renewal is charged at the full price. If you
    have graduated, the plan continues at the normal price; you can downgrade or cancel from
    Settings › Billing. A student discount that has ended cannot be applied backwards to an
    invoice already paid.""")
doc("discount-education", "Discounts for schools and universities",
    """Accredited schools, colleges and universities get 60% off Team and Business for workspaces
    used by staff and students. Apply through the education form with your institution's name,
    website and a staff email address on the institution's domain; approval takes up to 5
    business days. Teachers at K-12 schools can also get Team free for one classroom workspace of
    up to 40 students.""")
doc("discount-nonprofit", "Nonprofit discount",
    """Registered nonprofits and charities get 50% off Team and Business. In the US we need proof
    of 501(c)(3) status; in the UK a Charity Commission or OSCR number; elsewhere a registration
    document from the national charity regulator. Apply from Settings › Billing › Discounts.
    Political parties, religious organisations whose main activity is worship, and government
    bodies are not eligible.""")
doc("discount-startup", "Acme for Startups",
    """Startups that are less than 2 years old and have raised less than $2 million can get 12
    months of Business free for up to 20 seats through Acme for Startups. Apply with your company
    website, incorporation date and, if you are in an accelerator, the accelerator's partner
    code. After 12 months the workspace continues on Business at 50% off for another 12 months,
    then at the normal price.""")
doc("discount-promo-code", "Using a promo code",
    """Enter a promo code at checkout or in Settings › Billing › Discounts › Add promo code. A
    code applies only to the plan and billing cycle it was created for, and it cannot be added
    after a subscription has started, except during the first 7 days. Only one promo code can be
    used per subscription, and promo codes cannot be combined with student, education or
    nonprofit discounts.""")
doc("discount-combine", "Can discounts be combined?",
    """The annual billing discount combines with any other discount. Student, education,
    nonprofit and startup discounts cannot be combined with each other: if you qualify for more
    than one, the larger applies. Promo codes and cancellation offers cannot be combined with
    student, education or nonprofit discounts. Enterprise contracts have their own pricing and no
    other discounts apply.""")
doc("discount-regional", "Regional pricing",
    """In some countries, prices for Starter and Team are adjusted to local purchasing power, for
    example in India, Brazil, Indonesia and Mexico. Regional pricing is set by your billing
    country and is shown at checkout. Regional prices cannot be combined with the student
    discount, and the billing address must be in the country whose price you pay; we may ask
    for proof of address.""")

# --------------------------------------------------------------------------- seats and members
doc("seats-add", "Adding seats",
    """Every member of a paid workspace uses one seat, except guests. To add seats, open Settings ›
    Members › Seats and raise the number, or simply invite someone when no seat is free and
    confirm the extra charge. New seats are charged immediately for the rest of the billing
    period at a prorated price. On annual plans, the prorated amount covers the months left until
    your renewal date.""")
doc("seats-remove", "Removing seats",
    """Removing a member frees their seat but does not lower your bill by itself. To pay for fewer
    seats, open Settings › Members › Seats and lower the number. On monthly plans the new number
    applies from the next renewal; on annual plans, from the next annual renewal. The seat count
    cannot go below the number of current members, so remove members first.""")
doc("seats-proration-example", "Seat proration: an example",
    """Suppose your Team workspace is billed monthly on the 1st at $15 per seat and you add 4 seats
    on the 16th of a 30-day month. You pay 4 × $15 × 15/30 = $30 right away, and from the next
    renewal your invoice includes the 4 seats at the full $60 per month. On an annual Team plan
    with 6 months left, the same 4 seats cost 4 × $144 × 6/12 = $288.""")
doc("seats-guests", "Guest users",
    """Guests are people outside your organisation whom you invite to specific folders. They can
    view and comment, and edit if you allow it, but cannot see anything else in the workspace.
    Guests are free: Team, Business and Enterprise workspaces can have up to 5 guests per paid
    seat. A guest who is given access to more than 3 folders, or made a member, uses a paid
    seat.""")
doc("seats-roles", "Member roles",
    """There are five roles. The owner has full control, including billing and deleting the
    workspace; each workspace has exactly one owner. Admins manage members, security settings and
    shared folders. Billing admins manage payments and invoices. Members create and share files.
    Guests see only the folders shared with them. Admin roles are available on Team and
    higher; on Starter, the owner is the only admin.""")
doc("seats-transfer-ownership", "Transferring workspace ownership",
    """The owner can make another admin the owner from Settings › Members: open the person's
    menu and choose Transfer ownership. The new owner must accept from the email we send within 7
    days, otherwise the request expires. After the transfer, the previous owner becomes an admin.
    Ownership carries the billing responsibility, so the payment method stays the same until the
    new owner changes it.""")
doc("seats-invite", "Inviting people to your workspace",
    """Admins invite people from Settings › Members › Invite by entering email addresses, up to
    100 at a time, or by sharing an invite link. Invitations expire after 14 days. On paid plans,
    each accepted invitation uses a seat; if no seat is free, the admin is asked to buy one.
    Admins can restrict invitations to email addresses on the company's verified domains.""")
doc("seats-remove-member", "Removing a member",
    """When an admin removes a member, the member loses access immediately and their files are
    transferred to an admin of your choice. On Business and Enterprise, removed members' files can
    be restored for 90 days. Removing a member does not remove their personal Acme Cloud account,
    only their access to your workspace. The freed seat can be given to someone else.""")
doc("seats-scim", "Automatic provisioning with SCIM",
    """On Business and Enterprise, you can create, update and remove members automatically from
    your identity provider using SCIM 2.0. Okta, Microsoft Entra ID (formerly Azure AD),
    OneLogin and JumpCloud are supported. Generate a SCIM token in Settings › Security › SCIM
    and paste it into your identity provider. Users deprovisioned in the identity provider lose
    access within 5 minutes and their seat is freed.""")
doc("seats-domain-capture", "Domain capture",
    """Enterprise workspaces can verify their email domain and capture it: anyone who signs up
    with an address on that domain is added to the company workspace instead of creating a
    personal one, and existing personal accounts on the domain are asked to join or change their
    email. Verify the domain by adding a DNS TXT record in Settings › Security › Domains; DNS
    changes can take up to 48 hours to be seen.""")
doc("seats-verify-domain", "Verifying a domain",
    """Team, Business and Enterprise admins can verify a company domain in Settings › Security ›
    Domains. Copy the TXT record we show, add it at your DNS provider and click Verify. A verified
    domain lets admins limit invitations to that domain and, on Enterprise, capture it. We check
    the record again every 24 hours; if it disappears for 7 days, the domain becomes unverified.""")
doc("seats-free-limit", "Member limit on the Free plan",
    """A Free workspace can have 3 members. If you need more people, upgrade to a paid plan or
    invite people as guests to individual folders after upgrading; guests are not available on
    Free. If a paid workspace with more than 3 members moves to Free, the 3 earliest admins stay
    active and everyone else becomes read-only until the workspace upgrades or members are
    removed.""")
doc("seats-inactive", "Inactive members and unused seats",
    """Admins on Business and Enterprise can see each member's last activity in Settings ›
    Members and sort by it to find unused seats. Suspending a member keeps their files and
    settings but frees the seat. Enterprise workspaces can turn on automatic suspension of
    members inactive for 90 days; suspended members can be reactivated by an admin at any time.""")
doc("seats-multiple-workspaces", "Belonging to more than one workspace",
    """One Acme Cloud account can belong to several workspaces, for example a company workspace and
    a personal one. Each workspace bills its own seats, so a person who is a member of two paid
    workspaces uses a seat in each. Switch between workspaces from the workspace menu in the top
    left corner. Files cannot be shared across workspaces except through shared links.""")
doc("seats-sso-jit", "Just-in-time provisioning with SSO",
    """With SAML single sign-on on Business and Enterprise, you can turn on just-in-time
    provisioning: anyone your identity provider lets sign in is added as a member on their first
    login, using a free seat or buying one if the workspace allows automatic seat purchases. Turn
    off automatic purchases in Settings › Members › Seats to cap the seat count.""")

# --------------------------------------------------------------------------- account settings
doc("account-change-email", "Changing your email address",
    """To change the email address you sign in with, open Account › Profile › Email, enter the new
    address and your password. We send a confirmation link to the new address, valid for 24
    hours, and a notice to the old one. The change takes effect when you click the link. If your
    workspace uses SSO or domain capture, your email is managed by your admin and cannot be
    changed here.""")
doc("account-change-password", "Changing your password",
    """Open Account › Security › Password, enter your current password and the new one twice.
    Passwords must be at least 12 characters and cannot be one that has appeared in a known data
    breach. Changing your password signs you out of all other sessions and devices, including the
    desktop and mobile apps, but API tokens keep working.""")
doc("account-forgot-password", "Forgot your password",
    """On the sign-in page, click Forgot password and enter your email address. We send a reset
    link valid for 60 minutes. If you do not get the email within 10 minutes, check your spam
    folder. If your account has two-factor authentication, you will still need your second factor
    after resetting the password. Accounts that sign in with SSO reset their password with their
    identity provider, not with us.""")
doc("account-locked", "My account is locked",
    """After 10 failed sign-in attempts in a row, an account is locked for 30 minutes to protect
    it from password guessing. Wait 30 minutes, or reset your password from the sign-in page,
    which unlocks the account at once. If you keep getting locked out without having typed a
    wrong password, someone may be trying to sign in as you: reset your password and turn on
    two-factor authentication.""")
doc("account-name-photo", "Changing your name and profile photo",
    """Your display name and photo are in Account › Profile. Photos can be JPG or PNG up to 5 MB and
    are cropped to a square. Your name is shown on comments, file activity and shared links. In
    workspaces that use SCIM provisioning, your name comes from the identity provider and changes
    you make here are overwritten at the next sync.""")
doc("account-language-timezone", "Language and time zone",
    """Acme Cloud is available in English, French, German, Spanish, Portuguese, Italian, Dutch,
    Japanese and Korean. Change the language in Account › Preferences › Language. Dates and times,
    such as file activity and scheduled exports, are shown in the time zone set in Account ›
    Preferences › Time zone; by default it follows your browser. Invoices always use the UTC
    date.""")
doc("account-notifications", "Email and push notifications",
    """Choose which notifications you receive in Account › Notifications. You can get emails for
    comments, mentions, shares and file requests immediately, as a daily digest or not at all.
    Push notifications on mobile are set separately in the app. Security emails, such as new
    sign-in alerts and password changes, and billing emails to billing contacts cannot be turned
    off.""")
doc("account-delete", "Deleting your personal account",
    """To delete your personal Acme Cloud account, open Account › Privacy › Delete account. If you
    own a workspace, transfer ownership or delete that workspace first. Deletion is final after a
    30-day grace period, during which signing in again cancels it. Files you created in other
    people's workspaces stay in those workspaces; files in your personal workspace are
    deleted.""")
doc("account-merge", "Merging two accounts",
    """Acme Cloud cannot merge two accounts. If you have accounts on two email addresses, move the
    files you need by sharing them from the old account to the new one, or by downloading and
    uploading them, then delete the old account. If both accounts belong to the same company
    workspace, ask an admin to remove the old account and transfer its files to the new one.""")
doc("account-sessions", "Signed-in devices and sessions",
    """Account › Security › Sessions lists every browser, desktop app and mobile device signed in
    to your account, with location and last activity. Click Sign out next to a session to end it,
    or Sign out all other sessions. Ending a session on a desktop app stops sync on that device
    until you sign in again. Sessions stay signed in for 30 days unless your admin sets a shorter
    limit.""")
doc("account-work-personal", "Moving from a personal account to a work account",
    """If you have been using a personal account with your work email and your company creates an
    Acme Cloud workspace, you can join it with the same account: accept the invitation and choose
    which files to move into the company workspace. Files you leave in your personal workspace
    remain yours. On Enterprise workspaces with domain capture, you must join or change your
    email address.""")

# --------------------------------------------------------------------------- security
doc("sec-2fa-enable", "Turning on two-factor authentication (2FA)",
    """Two-factor authentication asks for a second step after your password. To turn it on, open
    Account › Security › Two-factor authentication and choose Authenticator app or Security key.
    For an authenticator app, scan the QR code with an app such as Google Authenticator, Microsoft
    Authenticator or 1Password and enter the 6-digit code it shows. You are then given 10 backup
    codes: store them somewhere safe.""")
doc("sec-2fa-methods", "Which 2FA methods are supported",
    """Acme Cloud supports three second factors: time-based one-time codes (TOTP) from an
    authenticator app, security keys and passkeys that follow the FIDO2/WebAuthn standard (such as
    YubiKey, Touch ID or Windows Hello), and backup codes. You can register several methods and
    up to 5 security keys. Text message (SMS) codes are being retired and cannot be added to new
    accounts.""")
doc("sec-2fa-sms-retirement", "Retirement of SMS codes for 2FA",
    """Since 1 September 2024, SMS can no longer be chosen as a new two-factor method, because text
    messages can be intercepted through SIM swapping. Accounts that already use SMS can keep it
    until 31 March 2025; after that date, SMS codes stop working and you will be asked to set up
    an authenticator app or security key at your next sign-in. Set one up now to avoid being
    locked out.""")
doc("sec-2fa-sms-2022", "Setting up 2FA with text messages (SMS) (archived)",
    """Archived article from 2022. To use SMS for two-factor authentication, open Account ›
    Security, choose Text message, enter your mobile number and type the 6-digit code we send.
    Codes are valid for 10 minutes. SMS 2FA is available in over 180 countries; carrier charges
    may apply. Note: SMS can no longer be added as a new method since September 2024.""")
doc("sec-backup-codes", "2FA backup codes",
    """When you turn on two-factor authentication you receive 10 backup codes of 8 characters.
    Each code works once, in place of a code from your app or key. Keep them in a password manager
    or printed somewhere safe. You can see how many codes are left and generate a new set in
    Account › Security › Two-factor authentication › Backup codes; generating a new set cancels
    the old one.""")
doc("sec-2fa-lost-phone", "Lost phone or authenticator app",
    """If you lost the phone with your authenticator app, sign in with one of your backup codes,
    then go to Account › Security, remove the old device and set up the app on your new phone.
    If you also have a security key registered, you can use that instead. If you have no backup
    codes and no other method, see Recovering an account without 2FA access.""")
doc("sec-2fa-recovery", "Recovering an account without 2FA access",
    """If you cannot use any second factor or backup code, members of a Team, Business or
    Enterprise workspace should ask a workspace admin, who can reset 2FA for them from Settings ›
    Members. For personal accounts, start account recovery from the sign-in page. We verify your
    identity using your billing details and a photo ID, and recovery takes 3 to 5 business days
    with a mandatory 72-hour waiting period. Support cannot turn off 2FA by phone.""")
doc("sec-2fa-new-phone", "Moving 2FA to a new phone",
    """Before you reset or trade in your old phone, move your authenticator app. Some apps,
    such as 1Password and Microsoft Authenticator, sync codes to a new phone. Otherwise, sign in on
    the web, open Account › Security › Two-factor authentication, choose Replace authenticator
    app, scan the new QR code with the new phone and confirm with a code. The old phone's codes
    stop working at once.""")
doc("sec-2fa-enforce", "Requiring 2FA for everyone in a workspace",
    """Admins on Team, Business and Enterprise can require two-factor authentication for all
    members in Settings › Security › Authentication › Require 2FA. Members without 2FA get 7 days
    to set it up, with reminders; after that they cannot open the workspace until they do. Guests
    can be included or excluded. Members who sign in with SAML SSO are covered by your identity
    provider's MFA instead.""")
doc("sec-2fa-codes-not-working", "My 2FA codes are not accepted",
    """Authenticator codes depend on the time on your phone. If codes are rejected, turn on
    automatic date and time in your phone's settings; a clock off by more than 90 seconds makes
    codes invalid. Make sure you are using the Acme Cloud entry in your app, not an older one from
    a previous setup. Each code can be used only once, so wait for the next code if you just
    signed in.""")
doc("sec-passkeys", "Signing in with a passkey",
    """A passkey lets you sign in without a password, using your fingerprint, face or device PIN.
    Add one in Account › Security › Passkeys and security keys. Passkeys stored in iCloud
    Keychain, Google Password Manager or 1Password work across your devices. A passkey also
    counts as a second factor, so signing in with one does not ask for a 2FA code. Passkeys are
    not used when your workspace requires SSO.""")
doc("sec-security-keys", "Using a hardware security key",
    """You can register up to 5 hardware security keys, such as YubiKey or Google Titan, as a second
    factor. Open Account › Security › Passkeys and security keys, click Add security key, insert
    or tap the key and give it a name. Register at least two keys and keep one in a safe place, so
    that losing one key does not lock you out.""")
doc("sec-sso-saml", "Setting up SAML single sign-on",
    """SAML 2.0 single sign-on is available on Business and Enterprise. In Settings › Security ›
    SSO, copy our Entity ID and ACS URL into your identity provider, then upload the provider's
    metadata XML or enter its SSO URL and signing certificate. Test with one account before
    requiring SSO for everyone. Guides are available for Okta, Microsoft Entra ID, Google
    Workspace, OneLogin and PingFederate.""")
doc("sec-sso-enforce", "Requiring SSO",
    """After SSO works, admins can make it required in Settings › Security › SSO › Require SSO.
    Members then sign in only through your identity provider; their Acme Cloud passwords stop
    working and password reset is disabled. Workspace owners keep a password as an emergency
    login in case the identity provider is down. Guests are not affected and sign in with their
    own accounts.""")
doc("sec-sso-certificate", "Renewing the SSO signing certificate",
    """Identity providers sign SAML responses with a certificate that expires, usually after 1 to 3
    years. When the certificate expires, sign-in through SSO fails with the error Invalid SAML
    signature. Before the expiry date, upload the new certificate in Settings › Security › SSO ›
    Certificates; both certificates are accepted during the changeover. We email admins 30 days
    before an uploaded certificate expires.""")
doc("sec-session-timeout", "Session length and idle timeout",
    """By default, web sessions last 30 days. Admins on Business and Enterprise can shorten this in
    Settings › Security › Sessions to between 1 hour and 30 days, and can sign members out after a
    period of inactivity between 15 minutes and 24 hours. Desktop and mobile apps follow the same
    limits. Changing the settings applies to new sessions; use Sign out everyone to apply them
    at once.""")
doc("sec-ip-allowlist", "IP allowlisting",
    """Enterprise admins can limit access to the workspace to a list of IP addresses and ranges in
    CIDR notation, such as 203.0.113.0/24, in Settings › Security › Network. Up to 500 entries
    are allowed. The list applies to the web app, desktop and mobile apps and, optionally, to API
    tokens. The owner can always sign in from any address, to avoid being locked out.""")
doc("sec-audit-log", "Audit log",
    """The audit log records sign-ins, sharing, permission changes, file downloads and admin
    actions. It is available on Business, where events are kept for 180 days, and on Enterprise,
    where they are kept for 3 years. Admins can filter and export it as CSV from Settings ›
    Security › Audit log, or stream it to a SIEM such as Splunk or Datadog through the audit log
    API on Enterprise.""")
doc("sec-login-alerts", "New sign-in alerts",
    """When your account signs in from a new device or browser, we email you the device, browser,
    approximate location and time. If it was not you, click This wasn't me in the email: we sign
    out that session, ask you to change your password and suggest turning on two-factor
    authentication. These alerts are security emails and cannot be turned off.""")
doc("sec-suspicious-activity", "If you think your account was compromised",
    """Change your password straight away, then open Account › Security › Sessions and sign out all
    other sessions. Check Account › Security › Connected apps and remove apps you do not
    recognise, and revoke API tokens you did not create. Turn on two-factor authentication. If
    files were shared or deleted without your knowledge, contact support: admins can check the
    audit log on Business and Enterprise.""")
doc("sec-password-policy", "Password requirements",
    """Passwords must have at least 12 characters. We do not require special characters, but we
    reject passwords found in public data breaches and passwords that contain your email address.
    Admins on Business and Enterprise can raise the minimum to 16 characters. We never ask you to
    change your password on a schedule, because forced rotation leads to weaker passwords.""")
doc("sec-encryption", "How your data is encrypted",
    """Files are encrypted in transit with TLS 1.2 or higher and at rest with AES-256. Encryption
    keys are managed in a hardware-backed key management service and rotated every year.
    Enterprise customers can use their own keys (bring your own key) stored in AWS KMS; revoking
    the key makes the workspace's files unreadable, including to Acme Cloud staff.""")
doc("sec-shared-links", "Securing shared links",
    """Shared links can be limited to people in your workspace, protected with a password, or set
    to expire on a date. Passwords and expiry dates need a paid plan. Admins on Team and higher can
    set defaults in Settings › Security › Sharing, for example requiring a password on every
    public link or limiting links to 30 days. Disabling public links turns off all existing public
    links at once.""")
doc("sec-compliance-reports", "Security certifications and reports",
    """Acme Cloud has a SOC 2 Type II report, renewed each year, and is certified to ISO/IEC 27001.
    Customers on Business and Enterprise can download the SOC 2 report from the Trust Center after
    accepting a non-disclosure agreement. Penetration test summaries are shared with Enterprise
    customers on request. We do not hold FedRAMP or PCI DSS certification for storing card
    data.""")
doc("sec-vulnerability-report", "Reporting a security vulnerability",
    """If you find a security vulnerability, report it to security@acmecloud.example or through
    our bug bounty programme. Do not test against other customers' data or run denial-of-service
    tests. We reply within 2 business days and pay rewards from $100 to $10,000 depending on
    severity. Please do not report findings from automated scanners without showing an actual
    impact.""")
doc("sec-phishing", "Phishing emails pretending to be Acme Cloud",
    """We never ask for your password, 2FA codes or backup codes by email, chat or phone. Our
    emails come from addresses ending in @acmecloud.example. Be careful with messages saying that
    your storage is full or that a file was shared with you that ask you to sign in through a link
    to another site. Forward suspicious messages to phishing@acmecloud.example and then delete
    them.""")

# --------------------------------------------------------------------------- data export
doc("export-workspace", "Exporting all your workspace data",
    """Owners and admins can export everything in a workspace from Settings › Workspace › Export
    data. The export is a ZIP archive with your files in their original formats, Acme Docs
    converted to DOCX or Markdown (you choose), and a JSON file with folders, members, comments
    and sharing settings. We email you a download link when it is ready, which usually takes from
    a few minutes to several hours for large workspaces.""")
doc("export-limits", "Export limits",
    """A workspace can start one full export every 24 hours. Download links stay valid for 7 days
    and can be used by the person who started the export only. Exports larger than 50 GB are split
    into numbered parts of up to 50 GB each. Version history is not included by default; include
    the last 10 versions of each file with the Include version history option, which makes the
    export larger.""")
doc("export-after-cancel", "Getting your data after you cancel",
    """Cancelling a subscription does not delete data, so you can export at any time, on any plan,
    including Free. If you deleted the workspace, the owner can restore it within 30 days and
    export before deleting it again. After the 30 days we cannot recover the files. If a payment
    problem made the workspace past due, exports remain available.""")
doc("export-scheduled", "Scheduled exports to your own storage",
    """Business and Enterprise workspaces can schedule a daily or weekly export to an Amazon S3
    bucket, Google Cloud Storage or Azure Blob Storage. Set it up in Settings › Workspace ›
    Export data › Scheduled exports by entering the bucket name and credentials with write access.
    Scheduled exports are incremental after the first one, so only changed files are copied.
    Failures are emailed to admins.""")
doc("export-personal-data", "Downloading a copy of your personal data",
    """Anyone can download the personal data held about them from Account › Privacy › Download my
    data. The archive contains your profile, sign-in history for the last 12 months, your
    notification settings and the files in your personal workspace, in JSON and original formats.
    It is prepared within 48 hours and the link stays valid for 7 days. This is separate from a
    full workspace export.""")
doc("export-single-folder", "Downloading a folder",
    """To download a single folder, right-click it and choose Download. Folders are downloaded as a
    ZIP file of up to 20 GB or 10,000 files in the browser; for larger folders, use the desktop
    app to sync the folder or use a workspace export. Acme Docs inside the folder are converted to
    DOCX. Shortcuts to files in other folders are not followed.""")
doc("export-docs-formats", "Export formats for Acme Docs",
    """Acme Docs can be exported one at a time from File › Download as DOCX, PDF, Markdown, HTML or
    plain text. Comments are included in DOCX exports as Word comments. Embedded spreadsheets are
    exported as tables; live data widgets become static snapshots. For many documents at once, use
    the workspace export, which converts all Docs to DOCX or Markdown.""")
doc("export-api", "Exporting data with the API",
    """The Files API can download files and folders programmatically. Use GET /v2/files/{id}/content
    for a single file and the export endpoint POST /v2/exports to start a workspace export, then
    poll GET /v2/exports/{id} until its status is ready. Exports started through the API count
    toward the limit of one full export every 24 hours. The API needs a token with the
    files:read and admin:export scopes.""")
doc("export-migrate", "Moving to another service",
    """To move to another storage service, start a workspace export and choose DOCX for Acme Docs,
    which most services can import. Sharing permissions cannot be carried over automatically, but
    the members and sharing JSON file in the export lists who had access to what. For a migration
    of more than 5 TB, Enterprise customers can ask for assisted export to a cloud bucket.""")
doc("export-incomplete", "My export is missing files",
    """An export skips files that are in the trash, files shared with you from other workspaces, and
    shortcuts. Files larger than the 50 GB part size are exported in their own part. If files are
    still missing, check the export_report.txt file inside the archive: it lists every skipped
    file with the reason, such as a file that was being uploaded when the export started.""")

# --------------------------------------------------------------------------- privacy and GDPR
doc("privacy-gdpr-overview", "Acme Cloud and the GDPR",
    """For workspaces, the customer is the data controller and Acme Cloud is the data processor: we
    process the files and personal data you store only to provide the service, as set out in our
    Data Processing Agreement. For our own website and marketing, Acme Cloud is the controller.
    Our EU establishment is Acme Cloud Ltd., Dublin, Ireland, and our data protection officer can
    be reached at dpo@acmecloud.example.""")
doc("privacy-dpa", "Data Processing Agreement (DPA)",
    """Our Data Processing Agreement is part of the Terms of Service for every paid plan, so you do
    not need to sign anything for it to apply. If your organisation needs a signed copy, the owner
    can generate a pre-signed DPA with your company name in Settings › Workspace › Legal. The DPA
    includes the EU Standard Contractual Clauses and the UK Addendum. Changes to the standard DPA
    are available only on Enterprise.""")
doc("privacy-subprocessors", "Subprocessors",
    """We use subprocessors for hosting, email delivery, payments and support tools. The current
    list, with each company's purpose and location, is on our Subprocessors page. We give at least
    30 days' notice before adding a subprocessor; subscribe to updates from that page to be
    notified by email. If you object to a new subprocessor on reasonable data protection grounds,
    you may terminate the affected service and receive a refund of prepaid fees.""")
doc("privacy-data-residency", "Data residency: where your files are stored",
    """Business and Enterprise workspaces can choose where files are stored: the EU (Frankfurt),
    the US (Oregon) or Australia (Sydney). The region is chosen when the workspace is created or
    when it first upgrades to Business. Files, previews and search indexes stay in that region;
    account data such as names and emails, and billing data, are stored in the US. Workspaces on
    other plans are stored in the US.""")
doc("privacy-data-residency-move", "Moving a workspace to another region",
    """Once a region is set, Business workspaces cannot move it themselves. Enterprise customers can
    ask for a migration to another region; it is scheduled with your account manager, takes 1 to 3
    weeks depending on size, and during the final switch the workspace is read-only for up to 4
    hours. Business customers who need a different region can create a new workspace in that
    region and move their files.""")
doc("privacy-dsar", "Requests from individuals (data subject requests)",
    """If you want to access, correct or delete personal data that Acme Cloud holds about you, use
    Account › Privacy or email privacy@acmecloud.example. We reply within 30 days. If your data is
    in a company workspace, that company is the controller, so we will pass your request to them
    and tell you we did. Admins can find and delete a person's data with the data subject request
    tool on Business and Enterprise.""")
doc("privacy-retention", "How long we keep data",
    """Files you delete stay in the trash for 30 days. After they are removed from the trash, they
    are deleted from our primary storage within 24 hours and from backups within 35 days. When a
    workspace is deleted, its data is removed after the 30-day grace period, and from backups 35
    days later. Sign-in logs are kept for 12 months. Invoices and payment records are kept for 7
    years to meet tax law.""")
doc("privacy-ccpa", "Privacy rights in California (CCPA)",
    """California residents have the right to know what personal information we collect, to delete
    it, to correct it and to opt out of its sale or sharing. Acme Cloud does not sell personal
    information and does not share it for cross-context behavioural advertising. To make a
    request, use Account › Privacy or email privacy@acmecloud.example; we verify requests using
    your account email and respond within 45 days.""")
doc("privacy-hipaa", "HIPAA and health information",
    """Acme Cloud signs a Business Associate Agreement (BAA) only for Enterprise workspaces. Without
    a signed BAA, you must not store protected health information (PHI) in Acme Cloud. Workspaces
    covered by a BAA must turn on required 2FA, audit logs and shared link restrictions, and some
    features, such as AI summaries, are turned off. Ask your account manager to start the BAA
    process.""")
doc("privacy-cookies", "Cookies",
    """The Acme Cloud app uses strictly necessary cookies to keep you signed in and to protect
    against cross-site request forgery; these cannot be turned off. Our public website also uses
    analytics cookies, which in the EU, UK and Switzerland are set only if you accept them in the
    cookie banner. Change your choice at any time from Cookie settings in the website footer. The
    app itself uses no advertising cookies.""")
doc("privacy-ai", "AI features and your data",
    """AI features, such as summaries and search answers, process the content you select to produce
    the result. Your files are not used to train AI models, by us or by our model providers, and
    providers delete inputs within 30 days. Admins on Team and higher can turn AI features off for
    the whole workspace in Settings › Workspace › AI. AI features are turned off automatically in
    workspaces covered by a BAA.""")
doc("privacy-law-enforcement", "Government and law enforcement requests",
    """We disclose customer data to authorities only when legally required, after reviewing each
    request. Unless the law forbids it, we notify the affected customer before disclosing, so they
    can object. Requests must be sent to legal@acmecloud.example. We publish a transparency report
    every six months with the number of requests received and how we responded.""")
doc("privacy-transfers", "International data transfers",
    """When personal data from the EU, the UK or Switzerland is transferred to the US, we rely on
    the EU-U.S. Data Privacy Framework, the UK Extension and the Swiss-U.S. framework, under which
    Acme Cloud Inc. is certified, and on the Standard Contractual Clauses in our DPA as a fallback.
    Choosing EU data residency keeps files in Frankfurt, though support staff outside the EU may
    access them when you give permission.""")
doc("privacy-support-access", "When can Acme Cloud staff see my files?",
    """Acme Cloud staff cannot open your files unless you give permission. When you contact support
    about a specific file, the agent asks for access, which you grant for 7 days from the support
    ticket; you can revoke it at any time. Every access is recorded in the audit log. Exceptions
    are limited to legal obligations and investigations of abuse such as malware distribution.""")

# --------------------------------------------------------------------------- outages and SLA
doc("sla-overview", "Service level agreement (SLA)",
    """Business and Enterprise subscriptions include an uptime commitment. Business guarantees 99.9%
    monthly uptime and Enterprise 99.95%. If we miss it, you can claim a service credit, a
    percentage of that month's subscription fee applied to a future invoice. Free, Starter and
    Team are not covered by an SLA. The full terms, including what counts as downtime, are in the
    Service Level Agreement linked from our Terms of Service.""")
for _tier, _target, _bands in [
    ("Business", "99.9%", [("below 99.9% but at least 99.0%", 10), ("below 99.0% but at least 95.0%", 25), ("below 95.0%", 50)]),
    ("Enterprise", "99.95%", [("below 99.95% but at least 99.5%", 10), ("below 99.5% but at least 99.0%", 25), ("below 99.0%", 50)]),
]:
    _lines = "; ".join(f"uptime {band}: {pct}% credit" for band, pct in _bands)
    doc(f"sla-credits-{_tier.lower()}", f"SLA service credits on {_tier}",
        f"""On the {_tier} plan the monthly uptime target is {_target}. Service credits are a share
        of that month's fee for the affected workspace: {_lines}. Credits are capped at 50% of
        the monthly fee and are the only remedy for missing the target. Uptime is measured per
        calendar month in UTC, and scheduled maintenance announced at least 72 hours ahead does
        not count as downtime.""")
doc("sla-2022", "Service level agreement (archived, 2022)",
    """Archived: the SLA below applied until 29 February 2024. Team, Business and Enterprise plans
    were covered by a 99.5% monthly uptime commitment. Credits were 5% of the monthly fee for
    uptime below 99.5%, 10% below 99.0% and 25% below 95.0%, and had to be claimed within 15
    days of the end of the month. Since 1 March 2024, only Business (99.9%) and Enterprise
    (99.95%) have an SLA.""")
doc("sla-claim-credit", "Claiming an SLA service credit",
    """Credits are not applied automatically. The owner or a billing admin must claim within 30 days
    after the end of the month in which the downtime happened, using the SLA credit form in the
    Help Center. Include the incident ID from the status page, the dates and times you were
    affected and the features that did not work. We reply within 10 business days and add
    approved credits to your next invoice. Credits are not paid out in cash.""")
doc("sla-downtime-definition", "What counts as downtime",
    """Downtime means that the web app or the API returns server errors for more than 5% of requests
    for at least 5 consecutive minutes, measured by our monitoring from several regions. It does
    not include scheduled maintenance, problems caused by your network or identity provider,
    features labelled beta, or limits such as API rate limiting. Slow performance without errors
    does not count as downtime.""")
doc("outage-status-page", "Checking whether Acme Cloud is down",
    """Our status page, status.acmecloud.example, shows the current state of the web app, desktop
    sync, mobile apps, API, SSO and email notifications, and the uptime of each over the last 90
    days. If something is wrong, an incident is posted within 15 minutes of our monitoring
    detecting it. You can subscribe to updates by email, SMS, RSS or webhook, or follow
    @AcmeCloudStatus.""")
doc("outage-updates", "How we communicate during an incident",
    """During an incident we post an update on the status page at least every 30 minutes until it
    is resolved, even if there is nothing new to report. Enterprise customers with a technical
    account manager are also contacted directly for incidents that affect them. For major
    incidents, we publish a post-incident report within 5 business days explaining the cause and
    what we are changing.""")
doc("outage-maintenance", "Scheduled maintenance",
    """Planned maintenance happens on Sundays between 02:00 and 04:00 UTC, and we announce it at
    least 72 hours in advance on the status page. Most maintenance causes no interruption; when
    a feature will be unavailable, the announcement says which one and for how long. Emergency
    maintenance, for example to fix a security issue, may happen at other times with shorter
    notice.""")
doc("outage-cant-sign-in", "I can't sign in or Acme Cloud isn't loading",
    """First check the status page for an incident. If everything is operational, try a private
    browser window to rule out extensions and cached data, and check whether other sites load. If
    your workspace uses SSO, sign-in problems may come from your identity provider. If the desktop
    app says Offline while the web works, check proxy and firewall settings for
    *.acmecloud.example.""")
doc("outage-incident-2024-03", "Incident report: sync delays on 12 March 2024",
    """On 12 March 2024 between 14:05 and 17:40 UTC, desktop sync was delayed for about 30% of
    workspaces in the US region. A database failover during routine maintenance left a queue
    without workers. No files were lost; changes were synced once the queue was restarted. We have
    added alerting on queue depth. Business and Enterprise customers affected for more than the
    SLA allows can claim credits as usual.""")
doc("outage-incident-2024-09", "Incident report: sign-in failures on 3 September 2024",
    """On 3 September 2024 between 08:12 and 09:03 UTC, about 12% of sign-in attempts failed with
    error 502, mostly for workspaces using SAML SSO. An expired internal certificate in our
    authentication service caused the failures. Users who were already signed in were not
    affected. We now monitor all internal certificates and renew them 30 days before expiry.""")
doc("outage-incident-2025-01", "Incident report: API errors on 21 January 2025",
    """On 21 January 2025 between 19:30 and 20:15 UTC, the API returned error 503 for 40% of
    requests in the EU region after a configuration change to our load balancers. The web and
    desktop apps were affected for 9 minutes. The change was rolled back. We now deploy load
    balancer changes one region at a time. The downtime counts toward the SLA for Business and
    Enterprise workspaces in the EU region.""")
doc("outage-data-loss", "Can an outage cause data loss?",
    """Files are stored in at least three copies across separate data centres in your region, and
    we take backups every 24 hours that are kept for 35 days. An outage may delay syncing or make
    files temporarily unavailable, but changes made in the desktop app while offline are uploaded
    once the service recovers. If a conflict occurs, both versions are kept and the second is
    renamed with conflicted copy.""")
doc("outage-offline-access", "Working offline during an outage",
    """The desktop app keeps files you marked as Available offline on your computer, so you can
    open and edit them during an outage or without internet. Changes are uploaded when the
    connection returns. Online-only files need a connection. On mobile, star files and choose Make
    available offline. Acme Docs can be edited offline in the desktop app only.""")

# --------------------------------------------------------------------------- API
doc("api-overview", "Getting started with the Acme Cloud API",
    """The Acme Cloud REST API lets you manage files, folders, members and shared links from your
    own code. The base URL is https://api.acmecloud.example/v2 and all requests use HTTPS and JSON.
    Authenticate with a personal access token for scripts or with OAuth 2.0 for apps used by other
    people. API access is available on every plan, including Free, with rate limits that depend on
    the plan.""")
for _tier, _rpm, _daily, _burst in [
    ("Free", "60", "10,000", "10"),
    ("Starter", "300", "100,000", "50"),
    ("Team", "1,000", "500,000", "100"),
    ("Business", "3,000", "2,000,000", "300"),
    ("Enterprise", "10,000", "no daily quota", "1,000"),
]:
    _quota = "no daily quota" if _daily == "no daily quota" else f"a daily quota of {_daily} requests"
    doc(f"api-limits-{_tier.lower()}", f"API rate limits on {_tier}",
        f"""On the {_tier} plan, the API allows {_rpm} requests per minute per workspace, with
        bursts of up to {_burst} requests per second, and {_quota}. Limits are shared by all
        tokens and apps in the workspace. Uploads and downloads count as one request each,
        regardless of size. When a limit is reached, the API answers with HTTP 429 Too Many
        Requests until the window resets.""")
doc("api-429", "Handling 429 Too Many Requests",
    """A 429 response means your workspace has hit a rate limit. The response includes a Retry-After
    header with the number of seconds to wait; retry after that time rather than immediately.
    Every response also carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset
    headers, so you can slow down before hitting the limit. Our official SDKs for Python, Node.js
    and Go retry 429 responses automatically with exponential backoff.""")
doc("api-daily-quota", "Daily API quota exceeded",
    """If the error code in a 429 response is daily_quota_exceeded rather than rate_limited, your
    workspace has used its daily request quota, which resets at 00:00 UTC. Waiting a few seconds
    will not help. To raise the quota, upgrade your plan; Enterprise has no daily quota. Admins can
    see usage per token in Settings › Developer › Usage to find the script making the most
    calls.""")
doc("api-tokens", "Personal access tokens",
    """Create a personal access token in Settings › Developer › Tokens. Choose a name, an expiry date
    of up to 1 year and the scopes the token needs, such as files:read or members:write. The token
    is shown only once, so copy it into a secret manager. Tokens act as you: they can do only what
    your account can do, and they stop working if you leave the workspace.""")
doc("api-token-rotation", "Rotating and revoking API tokens",
    """Tokens expire after at most 1 year; we email you 14 days before a token expires. To rotate a
    token without downtime, create a new token with the same scopes, deploy it, then revoke the old
    one in Settings › Developer › Tokens. Tokens created before 1 July 2024 had no expiry date;
    they will stop working on 1 July 2025 unless replaced. Admins can revoke any member's tokens.""")
doc("api-oauth", "Building an app with OAuth 2.0",
    """Apps used by people outside your workspace must use OAuth 2.0 with the authorization code
    flow and PKCE. Register the app in Settings › Developer › OAuth apps to get a client ID and
    secret, and list your redirect URIs exactly. Access tokens last 1 hour and refresh tokens 90
    days; a refresh token is replaced each time it is used. Apps requesting admin scopes need
    admin approval in each workspace.""")
doc("api-errors", "API error codes",
    """Errors return a JSON body with code, message and request_id. Common codes: 400
    invalid_request for malformed input, 401 unauthorized for a missing, expired or revoked token,
    403 forbidden when the token lacks a scope or the user lacks permission, 404 not_found, 409
    conflict when a file with the same name exists, 413 payload_too_large, 429 rate_limited or
    daily_quota_exceeded, and 5xx for server errors. Include the request_id when contacting
    support.""")
doc("api-pagination", "Pagination",
    """List endpoints return at most 200 items per page; the default is 50. Set the page size with
    limit and pass the next_cursor value from the response as cursor to get the next page. When
    next_cursor is null, there are no more items. Cursors expire after 24 hours. Offset-based
    pagination with page and per_page was removed in v2.""")
doc("api-uploads", "Uploading files with the API",
    """Files up to 150 MB can be uploaded in one request with POST /v2/files/upload. Larger files,
    up to your plan's file size limit, must use a multipart upload session: start one with POST
    /v2/uploads, send parts of 8 to 150 MB, then commit. Sessions expire after 7 days. A request
    body over 150 MB returns 413 payload_too_large.""")
doc("api-webhooks", "Webhooks",
    """Webhooks send an HTTPS POST to your endpoint when files change, members join or shared links
    are created. Each delivery is signed with an X-Acme-Signature header, an HMAC-SHA256 of the
    body using your webhook secret; verify it before trusting the payload. Your endpoint must
    answer with a 2xx status within 10 seconds. A workspace can have up to 20 webhook
    endpoints.""")
doc("api-webhook-retries", "Webhook retries and disabled endpoints",
    """If your endpoint does not answer with a 2xx status within 10 seconds, we retry the delivery
    up to 8 times over 24 hours with exponential backoff. If every delivery to an endpoint fails for
    3 days, the endpoint is disabled and the workspace admins are emailed. Re-enable it in Settings
    › Developer › Webhooks; deliveries missed while it was disabled are not resent, so use the
    events API to catch up.""")
doc("api-v1-sunset", "API v1 deprecation and shutdown",
    """API v1 was deprecated on 1 January 2025 and will be shut down on 30 June 2025. After that
    date, requests to /v1 return 410 Gone. The main changes in v2 are cursor pagination, scoped
    tokens instead of account-wide API keys, and the multipart upload flow. Responses from v1
    carry a Sunset header with the shutdown date. See the migration guide for a mapping of every
    v1 endpoint.""")
doc("api-v1-keys", "API keys (v1, deprecated)",
    """Deprecated: v1 API keys are account-wide keys found under Account › API keys in the old
    settings. They have full access to everything your account can reach and never expire. New v1
    keys cannot be created since 1 January 2025, and existing keys stop working when v1 shuts down
    on 30 June 2025. Replace them with v2 personal access tokens, which have scopes and an expiry
    date.""")
doc("api-sdks", "Official SDKs",
    """Official SDKs are available for Python (pip install acmecloud), Node.js (npm install
    @acmecloud/sdk) and Go. They handle authentication, pagination, multipart uploads and
    retries of 429 and 5xx responses. The SDKs follow semantic versioning and support each API
    version for its full lifetime. Community libraries for other languages exist but are not
    supported by Acme Cloud.""")
doc("api-sandbox", "Testing against a sandbox",
    """Developers can create a free sandbox workspace from Settings › Developer › Sandbox. Sandboxes
    have Business features, 10 GB of storage and the Team plan's API limits, and are deleted after
    90 days without API calls. They cannot invite more than 5 members or send email notifications
    outside the sandbox. Data cannot be moved from a sandbox to a production workspace.""")
doc("api-ip-allowlist", "Restricting API tokens by IP address",
    """On Enterprise, admins can require API tokens to be used only from allowlisted IP addresses by
    turning on Apply to API in Settings › Security › Network. Requests from other addresses get 403
    forbidden with the code ip_not_allowed. Personal access tokens can also be limited to specific
    addresses when they are created, on any plan with API access.""")

# --------------------------------------------------------------------------- prices by currency
for _cur, _sym, _starter, _team, _business, _note in [
    ("USD", "$", "8", "15", "29", "US dollar prices apply in the United States and in any country without its own price list."),
    ("EUR", "€", "8", "14", "27", "Euro prices apply in the eurozone and include no VAT; VAT is added at checkout where it applies."),
    ("GBP", "£", "7", "12", "23", "Pound prices apply in the United Kingdom, the Channel Islands and the Isle of Man, before VAT."),
    ("CAD", "CA$", "11", "20", "39", "Canadian dollar prices apply in Canada; GST, HST or QST is added at checkout."),
    ("AUD", "A$", "12", "23", "44", "Australian dollar prices apply in Australia and New Zealand, before GST."),
    ("JPY", "¥", "1,200", "2,200", "4,300", "Yen prices apply in Japan; consumption tax is added at checkout."),
]:
    doc(f"prices-{_cur.lower()}", f"Prices in {_cur}",
        f"""Monthly prices per user in {_cur}: Starter {_sym}{_starter}, Team {_sym}{_team} and
        Business {_sym}{_business}. Annual billing is 20% less per month. {_note} These prices
        took effect on 1 March 2024 for new subscriptions. The currency is fixed when you first
        subscribe and is shown on every invoice.""")

# --------------------------------------------------------------------------- storage and files
doc("storage-full", "Your storage is full",
    """When a workspace reaches its storage limit, members can still view, download and share
    files, but new uploads and desktop sync of new files stop, and editing a file that would make
    it larger fails. To free space, empty the trash (deleted files still count until the trash is
    emptied), delete large old versions, or remove files you no longer need. Admins can also add
    seats or upgrade for more space.""")
doc("storage-what-counts", "What counts toward storage",
    """Storage used includes every file in the workspace, files in the trash, and earlier versions
    kept by version history. Files shared with you from another workspace count toward that
    workspace's storage, not yours. Acme Docs, comments and shortcuts do not count. Admins can see
    a breakdown by member and by folder in Settings › Workspace › Storage.""")
doc("storage-add-on", "Buying extra storage",
    """Starter and Team workspaces can buy storage add-ons of 1 TB for $10 per month, without adding
    seats. Add-on storage is shared by the whole workspace. Add-ons are billed with the
    subscription, prorated when added, and can be removed at renewal if the workspace is under
    its limit. Business storage is already pooled; Business workspaces that need more should
    contact sales.""")
doc("storage-file-size", "Maximum file size",
    """The largest file you can upload depends on your plan: 250 MB on Free, 2 GB on Starter, 10 GB
    on Team, 50 GB on Business and 250 GB on Enterprise. The limit applies to the web, desktop and
    mobile apps and the API. In the browser, files over 4 GB upload more reliably with the desktop
    app. If an upload stops with File too large, the file is over your plan's limit.""")
doc("storage-trash", "Restoring deleted files",
    """Deleted files go to the trash and can be restored for 30 days from Trash in the left sidebar:
    select the files and click Restore. They return to their original folder, or to your home
    folder if that folder no longer exists. After 30 days, files are permanently deleted. On
    Business and Enterprise, admins can restore files deleted by any member within the same 30
    days.""")
doc("storage-version-history", "Restoring an earlier version of a file",
    """To restore an earlier version, right-click the file and choose Version history. Select a
    version to preview it, then click Restore; the current version is kept as a new entry, so
    restoring can be undone. How far back you can go depends on the plan: 7 days on Free, 30 days
    on Starter, 90 days on Team, 1 year on Business and without limit on Enterprise.""")
doc("storage-ransomware", "Recovering from ransomware or mass deletion",
    """If many files were encrypted by ransomware or deleted by mistake, use Rewind, which restores a
    folder or the whole workspace to how it was at a chosen moment. Rewind is available on Team
    (up to 30 days back), Business (up to 180 days) and Enterprise (up to 1 year). Disconnect the
    infected computer first so that it does not sync encrypted files again. Rewind keeps the
    encrypted copies as versions.""")
doc("storage-blocked-files", "Files that can't be uploaded",
    """You cannot upload files that our malware scan flags, files whose name is longer than 255
    characters or contains characters such as a backslash, or system files such as desktop.ini and
    .DS_Store, which are skipped by sync. Paths longer than 4,096 characters are also rejected. If
    a file is wrongly flagged as malware, contact support with the file name and we will
    review it.""")
doc("storage-per-user-vs-pooled", "Per-user and pooled storage",
    """On Starter and Team, each paid seat brings its own storage, 100 GB or 1 TB, that belongs to
    that member. On Business, storage is pooled: the workspace gets 5 TB multiplied by the number
    of seats, and any member can use it. Guests use the storage of the member who shared the
    folder with them. Adding a seat raises the total at once.""")

# --------------------------------------------------------------------------- sync and apps
doc("apps-desktop-install", "Installing the desktop app",
    """The desktop app is available for Windows 10 and 11, macOS 12 or later and Ubuntu 22.04 or
    later. It adds an Acme Cloud folder to your computer that stays in sync with the workspace.
    Download it from the Apps page and sign in. Installing needs administrator rights on Windows;
    IT teams can deploy the MSI or PKG installer silently with our deployment guide.""")
doc("apps-sync-stuck", "Desktop sync is stuck",
    """If the desktop app shows Syncing for a long time, check the status page, then open the app's
    activity panel to see which file is stuck. Common causes are a file open in another program, a
    file name with characters your operating system does not allow, a full disk, or a full
    workspace. Pausing and resuming sync, or signing out and in again, restarts the sync queue
    without downloading everything again.""")
doc("apps-selective-sync", "Choosing which folders sync",
    """Selective sync lets you choose which folders are stored on your computer. Open the desktop
    app's Preferences › Sync › Choose folders and untick folders you do not need. Unticked folders
    are removed from your computer but not from Acme Cloud. Files on demand is a different option:
    all folders appear, but files download only when you open them.""")
doc("apps-mobile", "Mobile apps",
    """The Acme Cloud app for iPhone and iPad needs iOS 16 or later, and the Android app needs Android
    10 or later. The apps can upload photos automatically, scan documents to PDF and make files
    available offline. Admins on Business and Enterprise can require a passcode on the app and
    block downloads to unmanaged devices. Subscriptions bought in the app are billed by Apple or
    Google.""")
doc("apps-camera-upload", "Automatic photo upload",
    """Camera upload copies new photos and videos from your phone to a Camera Uploads folder. Turn it
    on in the mobile app's Settings › Camera upload. By default it uploads only on Wi-Fi; you can
    allow mobile data. Uploads count toward your storage. On iPhone, uploads continue in the
    background only if Background App Refresh is on.""")
doc("apps-linux", "Linux support",
    """The desktop app supports Ubuntu 22.04 and 24.04, Debian 12 and Fedora 39 or later, on x86-64
    only. It is distributed as a .deb, an .rpm and an AppImage. Files on demand is not available
    on Linux, so selected folders are fully downloaded. A command-line client, acmecloud-cli, can
    run on servers without a desktop.""")

# --------------------------------------------------------------------------- sharing
doc("share-links", "Sharing with a link",
    """Right-click a file or folder and choose Share › Copy link. You can choose whether people with
    the link can view, comment or edit, and whether the link works for anyone or only for members
    of your workspace. On paid plans, add a password or an expiry date. Anyone with a view link can
    download the file unless you turn off downloads in the link settings.""")
doc("share-invite-people", "Sharing with specific people",
    """To share with named people, choose Share › Invite and enter their email addresses. People in
    your workspace get access immediately. People outside it are added as guests on Team and
    higher, or receive a view link on Free and Starter. Sharing a folder gives access to
    everything inside it, including files added later.""")
doc("share-permissions", "Permission levels",
    """There are four permission levels for files and folders: Can view lets people open and
    download; Can comment adds comments; Can edit lets people change, upload and delete; Full access
    also lets them share and change others' permissions. Permissions on a folder apply to
    everything inside it. You cannot give someone less access to a subfolder than they have on the
    parent folder.""")
doc("share-external-restrict", "Restricting sharing outside the company",
    """Admins on Team and higher can control sharing outside the workspace in Settings › Security ›
    Sharing: allow it, allow it only with approved domains, or block it. Blocking external sharing
    turns off existing public links and removes guests' access, which admins are warned about
    before confirming. Business and Enterprise admins can also block downloads for guests.""")
doc("share-file-requests", "File requests",
    """A file request lets people upload files to a folder without seeing its contents, for example
    to collect documents from clients. Create one from New › File request, choose the destination
    folder and a deadline. Uploaders do not need an Acme Cloud account. Uploaded files count toward
    your storage, and each uploaded file can be up to your plan's file size limit.""")

# --------------------------------------------------------------------------- support
for _tier, _channels, _first_reply, _hours in [
    ("Free", "the community forum and email", "3 business days", "Monday to Friday, 09:00 to 17:00 in your region"),
    ("Starter", "email", "1 business day", "Monday to Friday, 09:00 to 17:00 in your region"),
    ("Team", "email and live chat", "8 business hours", "Monday to Friday, 08:00 to 20:00 in your region"),
    ("Business", "email, live chat and scheduled calls", "4 hours", "24 hours a day, Monday to Friday"),
    ("Enterprise", "email, live chat, phone and a named technical account manager", "1 hour for Priority 1 incidents", "24 hours a day, 7 days a week"),
]:
    doc(f"support-{_tier.lower()}", f"Support on the {_tier} plan",
        f"""{_tier} workspaces can reach Acme Cloud support through {_channels}. Our target for the
        first reply is {_first_reply}, and support is staffed {_hours}. Open a request from Help ›
        Contact support while signed in, so that we can see your workspace and plan. Billing and
        account-access questions are answered on every plan, including Free.""")
doc("support-priorities", "Support priority levels",
    """Enterprise requests are classed by priority. Priority 1: the service is down or unusable for
    many users, answered within 1 hour, 24/7. Priority 2: a major feature is broken with no
    workaround, answered within 4 hours. Priority 3: a problem with a workaround, answered within 1
    business day. Priority 4: questions and feature requests, answered within 2 business days.
    Only admins can open Priority 1 requests, by phone or in the portal.""")
doc("support-languages", "Support languages",
    """Support is available in English at all hours covered by your plan. Chat and email support in
    French, German, Spanish and Japanese are available during business hours in the matching
    regions. Phone support for Enterprise is in English, with other languages by appointment. Help
    Center articles are translated into all nine languages of the app.""")
doc("support-contact-locked-out", "Contacting support when you can't sign in",
    """If you cannot sign in, use the Can't sign in? link on the sign-in page to open a request
    without an account. Use the email address of your Acme Cloud account so that we can find it.
    For security, support will never turn off two-factor authentication or change an email address
    based on a chat or phone call alone; we follow the account recovery process.""")
doc("support-billing-contact", "Contacting billing support",
    """For questions about invoices, refunds, taxes or payments, choose Billing in Help › Contact
    support, or email billing@acmecloud.example from the address of the owner or a billing
    contact. Include the invoice number if your question is about a charge. Billing support
    replies within 1 business day on every plan, Monday to Friday.""")
doc("support-feature-request", "Suggesting a feature",
    """Feature requests go to our public ideas board, where you can vote and comment on existing
    ideas. Our product team reviews the most voted ideas every quarter and marks them as planned,
    in progress or not planned. Support agents can add your request to an existing idea but
    cannot promise when or whether it will be built.""")

# --------------------------------------------------------------------------- integrations
doc("int-slack", "Slack integration",
    """Connect Slack from Settings › Integrations › Slack to get previews of Acme Cloud links in
    Slack, share files to channels and receive notifications for comments and file requests. Each
    member links their own Slack account. The integration is available on Starter and higher.
    Disconnecting it removes Acme Cloud's access to your Slack workspace but keeps messages that
    were already posted.""")
doc("int-microsoft", "Microsoft 365 and Teams",
    """With the Microsoft 365 integration, Word, Excel and PowerPoint files open in Office for the web
    and save back to Acme Cloud with version history. The Teams app adds an Acme Cloud tab to
    channels. Editing Office files in the browser needs a Microsoft 365 licence for each editor.
    The integration is available on Team and higher and must be allowed by an admin.""")
doc("int-google-import", "Importing from Google Drive",
    """To move files from Google Drive, use Settings › Integrations › Import from Google Drive. Sign
    in with Google, choose the folders and start the import; Google Docs, Sheets and Slides are
    converted to DOCX, XLSX and PPTX. Imports run in the background and count toward Google's
    download limits, so large imports can take several days. Sharing permissions are not
    imported.""")
doc("int-zapier", "Zapier and automation",
    """The Zapier integration triggers workflows when files are added or changed, and can create
    folders, upload files or share links. Zapier calls count toward your workspace's API rate
    limits and daily quota. For automations inside Acme Cloud, such as moving files that match a
    name into a folder, use Automations on Business and Enterprise.""")
doc("int-disable", "Controlling which apps members can connect",
    """Admins on Team and higher can choose which third-party apps and integrations members may
    connect in Settings › Integrations › App access: allow all, allow only approved apps, or block
    all. Blocking an app revokes its existing connections. OAuth apps that request admin scopes
    always need an admin's approval, whatever this setting says.""")

# --------------------------------------------------------------------------- enterprise contracts
doc("ent-billing", "Enterprise billing and contracts",
    """Enterprise subscriptions are annual or multi-year contracts signed with our sales team. They
    are invoiced yearly in advance, payable within 30 days by wire transfer or ACH, and can be in
    USD, EUR or GBP. The contract sets the committed number of seats, the price per seat and any
    included add-ons. Changes to billing details go through your account manager rather than
    Settings › Billing.""")
doc("ent-true-up", "Enterprise seat true-up",
    """Enterprise workspaces can add members beyond the committed seat count without waiting for
    approval. Every quarter we compare the highest number of active members with the committed
    seats and send a true-up invoice for the extra seats, prorated for the rest of the contract
    year at the contract price. Seats cannot be reduced below the committed number until the
    contract renews.""")
doc("ent-cancel", "Ending an Enterprise contract",
    """Enterprise contracts renew automatically for the same term unless either side gives written
    notice at least 60 days before the end of the term. Send notice to your account manager and
    legal@acmecloud.example. Enterprise fees are not refundable during the term, except as the
    contract or the SLA provides. After the contract ends, the workspace moves to Free unless you
    choose another plan.""")
doc("ent-procurement", "Security reviews and vendor questionnaires",
    """For procurement, we can complete standard security questionnaires such as SIG Lite and CAIQ
    for Enterprise prospects, and most answers are already in the Trust Center. Custom
    questionnaires take about 10 business days. Your account manager can also arrange a call with
    our security team and share the SOC 2 Type II report under a non-disclosure agreement.""")

# --------------------------------------------------------------------------- regional consumer rules
doc("refund-germany", "Cancellation for customers in Germany",
    """Customers in Germany can cancel a subscription at any time with the cancellation button
    (Verträge hier kündigen) on our website footer, without signing in. After the initial term,
    subscriptions bought by consumers can be cancelled with one month's notice, and a consumer's
    annual plan that renewed automatically can be ended early with one month's notice; unused
    full months are refunded. The 14-day EU withdrawal right also applies.""")
doc("refund-brazil", "Right of regret for customers in Brazil",
    """Under the Brazilian Consumer Defence Code, consumers in Brazil who subscribe online can cancel
    within 7 days of the purchase and receive a full refund, without giving a reason. This applies
    to new subscriptions bought as an individual, not to renewals or business subscriptions. Use
    Request refund on the invoice within 7 days. After that, our standard Refund policy
    applies.""")
doc("refund-japan", "Cancellation and refunds in Japan",
    """For customers in Japan, subscriptions can be cancelled at any time in Settings › Billing and
    remain active until the end of the paid period. Japanese law does not give a cooling-off period
    for online software subscriptions, so our standard Refund policy applies: a full refund within
    14 days of the first payment, or within 7 days of an annual renewal. Refunds are made in yen to
    the original card.""")
doc("refund-india", "Refunds for customers in India",
    """For customers in India, refunds follow our standard Refund policy. Because card payments from
    India use e-mandates, refunds to Indian cards can take up to 15 business days, and the IGST
    charged is refunded with the subscription amount. If you paid with a business GSTIN and no
    IGST was charged, the refund covers the subscription price only.""")

# --------------------------------------------------------------------------- archived and older pages
doc("discount-student-2022", "Student discount (archived, 2022)",
    """Archived: until 31 December 2023, students received 30% off the Pro plan for as long as they
    had an active .edu email address, with no yearly verification. This offer has ended and can no
    longer be applied to new subscriptions. Students who signed up under it kept the discount until
    their next renewal after 1 January 2024. See Student discount for the current offer.""")
doc("discount-nonprofit-2022", "Nonprofit discount (before 2024)",
    """Before 2024, registered nonprofits received 25% off Team and Business in the United States
    and Canada only, verified with a 501(c)(3) letter or a CRA charity number. Since 1 January 2024
    the nonprofit discount is 50% and is available in every country where we can verify charity
    registration. Existing nonprofit customers were moved to the new discount at renewal.""")
doc("seats-guests-2023", "Guest users (before 2024)",
    """Archived: until 1 March 2024, guests were available on Business and Enterprise only and each
    workspace could have up to 100 guests in total, whatever its size. Guests could view and
    comment but not edit. Since 1 March 2024, guests are available from Team, edit access can be
    granted, and the limit is 5 guests per paid seat.""")
doc("sec-2fa-enforce-2022", "Requiring 2FA for a workspace (archived, 2022)",
    """Archived: in 2022, requiring two-factor authentication was available on Business and
    Enterprise only. When an admin turned it on, members without 2FA were signed out at once and
    had to set it up at their next sign-in, with no grace period; SMS was an accepted method. Since
    2024, Team admins can also require 2FA, members get a 7-day grace period and SMS is not
    accepted for new setups.""")
doc("storage-limits-2022", "Storage limits (archived, 2022)",
    """Archived: before 1 March 2024, Free workspaces had 2 GB, Starter 50 GB per user, Pro 500 GB per
    user, Team 1 TB per user and Business unlimited storage, subject to fair use. The maximum file
    size was 100 MB on Free and 5 GB on paid plans. Current limits are in Compare plans: storage
    and file limits.""")
doc("api-limits-2023", "API rate limits (archived, 2023)",
    """Archived: until 1 July 2024, rate limits were applied per token instead of per workspace:
    100 requests per minute for each token on paid plans and 20 on Free, with no daily quota.
    Because workspaces could work around the limit by creating many tokens, limits are now applied
    per workspace and depend on the plan. See API rate limits for your plan.""")
doc("support-hours-2022", "Support hours (archived, 2022)",
    """Archived: in 2022 support was available by email only, Monday to Friday from 09:00 to 18:00
    Pacific Time, for all plans. Business customers received a reply within 1 business day and
    other plans within 2 business days. Live chat was introduced in 2023 and 24-hour support for
    Business in 2024.""")
doc("outage-incident-2023-06", "Incident report: file previews unavailable on 8 June 2023",
    """On 8 June 2023 between 10:20 and 13:05 UTC, previews for PDF and Office files did not load for
    all workspaces. Files could still be downloaded and opened in desktop applications. A faulty
    update to the preview service caused the problem and was rolled back. No data was affected.
    Because previews are not part of the SLA definition of downtime, no credits applied.""")
doc("export-legacy-tool", "Legacy export tool (retired)",
    """Retired: until September 2023, workspace exports were made with the legacy export tool in
    Admin console › Backup, which produced a single TAR file of up to 100 GB, did not include
    comments, and converted Acme Docs to HTML only. The tool has been replaced by Export data in
    Settings › Workspace. Old export links from the legacy tool no longer work.""")

# --------------------------------------------------------------------------- FAQs (short answers that restate other pages)
doc("faq-billing", "Billing FAQ",
    """Can I pay for several years at once? Only on Enterprise contracts. Do you charge setup fees?
    No. Can I get a quote before buying? Yes, from the pricing page, for any plan and seat count.
    Are prices shown with tax? No: tax is added at checkout based on your billing address. Can
    somebody else pay for my workspace? Yes: add their card, or make them a billing admin.""")
doc("faq-refunds", "Refunds FAQ",
    """Do you refund unused months? Not after the refund window: cancelling stops the next charge,
    and the plan stays active to the end of the paid period. Is there a money-back guarantee? New
    subscriptions can be refunded within 14 days of the first payment. Do you refund partial
    months when I remove seats? No. How do I get money back for an outage? Through SLA service
    credits on Business and Enterprise.""")
doc("faq-security", "Security FAQ",
    """Is two-factor authentication required? Not unless your admin requires it, but we strongly
    recommend it. Can I use SMS for 2FA? Not for new setups since September 2024. Do you support
    passkeys? Yes, as a passwordless sign-in and second factor. Can Acme Cloud staff read my files?
    Only with your permission during a support request. Is my data encrypted? Yes, with TLS in
    transit and AES-256 at rest.""")
doc("faq-trial", "Free trial FAQ",
    """Do I need a credit card for the trial? No. Which plans can I try? Team and Business, for 14
    days. Can I try Enterprise? Yes, through sales, with an evaluation agreement. Will my files be
    deleted when the trial ends? No, the workspace moves to the Free plan. Can I have a second
    trial? No, each person or company gets one trial, but it can be extended once by 7 days.""")
doc("faq-accounts", "Account FAQ",
    """Can I have two accounts? Yes, with different email addresses, but accounts cannot be merged
    later. Can I change my sign-in email? Yes, unless your workspace manages it through SSO. Can I
    use Acme Cloud without a workspace? No: every account has at least a personal workspace on the
    Free plan. What happens to my account if I leave my company? You lose access to the company
    workspace; your personal workspace stays.""")
doc("faq-data", "Data and privacy FAQ",
    """Where is my data stored? In the US, unless a Business or Enterprise workspace chose the EU or
    Australia. Do you sell data? No. Are my files used to train AI? No. How long do you keep
    deleted files? 30 days in the trash, then up to 35 days in backups. Can I get a DPA? Yes, it is
    part of the Terms, and a pre-signed copy can be downloaded from Settings › Workspace ›
    Legal.""")
doc("faq-api", "Developer FAQ",
    """Is the API free? Yes, on every plan, within the plan's rate limits. Is there a sandbox? Yes,
    free, with Business features. Do tokens expire? Yes, after at most 1 year. Can I raise my rate
    limit without upgrading? Not on self-serve plans; Enterprise limits can be adjusted in the
    contract. Where do I report an API bug? Through support, including the request_id from the
    error response.""")

# --------------------------------------------------------------------------- collaboration and misc
doc("collab-comments", "Comments and mentions",
    """Select text in an Acme Doc, or a region of a PDF or image, and click Comment. Type @ followed
    by a name to mention someone; they are notified by email and in the app. Anyone with comment
    access can reply and resolve comments. Resolved comments are hidden but can be shown again from
    the comment panel. Guests can mention only people who already have access to the file.""")
doc("collab-docs", "Acme Docs",
    """Acme Docs are documents that several people can edit at the same time in the browser, with
    headings, tables, checklists, embedded files and live comments. Every change is saved
    automatically and version history records who changed what. Docs do not count toward storage.
    They can be downloaded as DOCX, PDF, Markdown, HTML or plain text, and can be edited offline in
    the desktop app.""")
doc("collab-templates", "Templates",
    """Templates let you start new folders or Acme Docs from a standard structure, such as a client
    project folder with subfolders and a kickoff document. Admins on Team and higher can publish
    templates for the whole workspace from Settings › Workspace › Templates. Members can save their
    own templates from any folder with More › Save as template.""")
doc("collab-search", "Searching your files",
    """Search looks through file names, the text inside documents and PDFs, and text in images
    recognised by OCR. Filter results by type, owner, date or folder. OCR and full-text search of
    PDFs are available on Team and higher; Free and Starter search file names and Acme Docs
    only. New files are searchable within a few minutes of upload.""")
doc("account-receipts-expense", "Getting a receipt for an expense report",
    """If your company reimburses you for Acme Cloud, download the receipt from Settings › Billing ›
    Invoices: the PDF receipt (number ending in -R) shows the amount, date, payment method and our
    company details. If your employer needs its own name on the document, change the company name
    in Invoice details before the next charge, or ask billing support to reissue an invoice from
    the last 90 days.""")
doc("billing-address-change", "Changing your billing address",
    """Update your billing address in Settings › Billing › Invoice details. The address is used for
    tax and is printed on invoices. If you move to another country, the next invoice uses that
    country's tax rules; your billing currency stays the same until you ask us to change it at
    renewal. For card payments, the address should match the one your bank holds, or payments may
    be declined.""")
doc("billing-reverse-charge", "What does reverse charge mean on my invoice?",
    """Reverse charge means we did not add VAT or GST to the invoice because you, as a registered
    business, account for the tax yourself in your own tax return. It appears on invoices to
    businesses in the EU, UK, India, Australia and New Zealand that have given us a valid tax
    number, except in Ireland, where we are established. The invoice shows both our tax number and
    yours.""")
doc("billing-app-to-web", "Moving an app store subscription to web billing",
    """To move from Apple or Google billing to paying Acme Cloud directly, for example to use annual
    invoices or promo codes, first cancel the subscription in your app store account. When the paid
    period ends and the workspace moves to Free, choose a plan in Settings › Billing on the web. To
    avoid a gap, you can subscribe on the web before the app store period ends; there is no refund
    for the overlap.""")
doc("billing-restore-purchase", "Restoring an in-app purchase",
    """If you subscribed in the iPhone or Android app but your workspace shows the Free plan, open
    the app's Settings › Account › Restore purchases while signed in with the same Acme Cloud
    account and the same Apple ID or Google account you used to pay. If the purchase still does not
    appear, send support the order number from Apple's or Google's receipt email.""")
doc("edu-classroom", "Classroom workspaces for teachers",
    """Teachers at primary and secondary schools (K-12) can get one free Team workspace for a class of
    up to 40 students. Verify with a school email address or a letter from the school. Students
    under 13 can join only with an account created by the teacher, and classroom workspaces have
    AI features, public links and guests turned off. The workspace must be renewed every school
    year, by 31 August.""")
doc("edu-student-privacy", "Student privacy (FERPA and COPPA)",
    """For schools in the United States, Acme Cloud signs a student data privacy agreement that
    covers FERPA, and collects no more personal data from students than a school account needs.
    Accounts for children under 13 are created only by schools, which give consent on behalf of
    parents under COPPA. Student data is never used for advertising and is deleted within 60 days
    after a school asks.""")
doc("privacy-children", "Children's accounts",
    """Acme Cloud is not intended for children under 13, or under 16 in the EU, unless an account is
    created by a school through a classroom workspace. If we learn that a child created an account
    without a school, we delete it. Parents who believe their child has an account can contact
    privacy@acmecloud.example with the email address used.""")
doc("privacy-account-data-after-deletion", "What is kept after you delete your account",
    """After your account is deleted, we keep a small record needed for legal reasons: invoices and
    payment records for 7 years, a record of the deletion request, and security logs for up to 12
    months. Comments you left in other people's workspaces stay, shown as from a Deleted user.
    Everything else is removed within 30 days, and from backups 35 days later.""")
doc("api-scopes", "API token scopes",
    """Scopes limit what a token can do. files:read and files:write cover files and folders;
    sharing:write creates and changes shared links; members:read and members:write cover members
    and invitations; admin:export starts workspace exports; audit:read reads the audit log on
    Enterprise. Choose the fewest scopes that work. A request needing a scope the token lacks gets
    403 forbidden with the code missing_scope.""")
doc("api-changelog", "API changelog and versioning",
    """Additive changes, such as new fields or endpoints, are made to the current API version without
    notice, so clients must ignore fields they do not know. Breaking changes are only released in a
    new major version, and the previous version is supported for at least 6 months after the new
    one is released. Subscribe to the API changelog for announcements.""")
doc("sla-team-faq", "Does the Team plan have an SLA?",
    """No. Team, Starter and Free workspaces are not covered by an uptime commitment and do not
    receive service credits for downtime. In practice, all plans run on the same infrastructure and
    have the same uptime. If you need a contractual guarantee, Business includes a 99.9% SLA and
    Enterprise 99.95%. Team workspaces that were covered by the 2022 SLA lost it on 1 March
    2024.""")
doc("outage-status-subscribe", "Subscribing to status updates",
    """On status.acmecloud.example, click Subscribe to updates and choose email, SMS, RSS, Slack or a
    webhook. You can limit notifications to the components and regions you care about, such as API
    in the EU region. Webhook subscriptions receive a JSON payload for every new incident and
    update. Unsubscribe from the link at the bottom of any notification.""")

# --------------------------------------------------------------------------- more how-to pages
doc("sec-2fa-admin-reset", "Resetting 2FA for a member (admins)",
    """Admins on Team, Business and Enterprise can reset two-factor authentication for a member who
    lost access to their second factor. Open Settings › Members, select the member, and choose
    Reset 2FA. Confirm the person's identity by another channel first, such as a video call. The
    member's registered methods and backup codes are removed and they must set up 2FA again at
    their next sign-in. The reset is recorded in the audit log.""")
doc("sec-security-key-lost", "Lost security key",
    """If you lose a hardware security key, sign in with another registered key, your authenticator
    app or a backup code, then remove the lost key in Account › Security › Passkeys and security
    keys so that it can no longer be used. If the lost key was your only second factor and you have
    no backup codes, follow the account recovery process or ask your workspace admin to reset
    2FA.""")
doc("sec-sso-errors", "Troubleshooting SSO sign-in errors",
    """User not assigned means the person is not assigned to the Acme Cloud app in your identity
    provider. Invalid SAML signature usually means the signing certificate changed or expired;
    upload the new one. Email mismatch means the NameID sent by the identity provider is not the
    email of an Acme Cloud member; send the primary email address. Clock skew errors appear when the
    identity provider's clock is more than 3 minutes off.""")
doc("sec-owner-recovery", "Emergency access for workspace owners",
    """When SSO is required, the workspace owner keeps an emergency password login so that the
    workspace is not locked if the identity provider fails or is misconfigured. The owner's
    emergency login always requires 2FA with an authenticator app or security key. Use it only to
    fix SSO settings; each emergency sign-in emails every admin and is recorded in the audit
    log.""")
doc("account-workspace-name", "Renaming a workspace and changing its URL",
    """Admins can rename the workspace in Settings › Workspace › General. The workspace URL, such as
    acmecloud.example/w/northwind, can be changed by the owner once every 30 days; old URLs redirect
    for 90 days. Shared links do not use the workspace URL and keep working after the change.
    Renaming does not change invoices until you also update the company name in Invoice
    details.""")
doc("account-same-email", "An account already exists with this email",
    """Each email address can belong to only one Acme Cloud account. If you see this message when
    signing up, you probably created an account before, perhaps through Sign in with Google or
    Microsoft. Try signing in with those options or reset your password. If your company captured
    the domain, your account may have been moved into the company workspace; ask your admin.""")
doc("export-members-csv", "Exporting the member list",
    """Admins can download a CSV of all members from Settings › Members › Export. The file lists
    each member's name, email, role, status, 2FA status, last activity and date joined. Guests are
    included in a separate section. The export reflects the moment it is made; for an audit trail of
    membership changes, use the audit log on Business and Enterprise.""")
doc("export-audit-log", "Exporting the audit log",
    """On Business and Enterprise, admins can export audit log events as CSV or JSON from Settings ›
    Security › Audit log › Export. Choose a date range within the retention period: 180 days on
    Business and 3 years on Enterprise. Exports of more than 1 million events are emailed as a
    download link. Enterprise workspaces can also stream events through the audit log API.""")
doc("privacy-dpa-free", "Is there a DPA for the Free and Starter plans?",
    """Yes. The Data Processing Agreement is part of the Terms of Service on every plan, including Free
    and Starter, whenever you store personal data about others in Acme Cloud. A pre-signed PDF copy
    can be generated by paid workspaces from Settings › Workspace › Legal. Free workspaces can
    download the unsigned standard DPA from our Legal page; it applies without a signature.""")
doc("api-limit-increase", "Requesting a higher API limit",
    """Self-serve plans cannot raise their API limits except by upgrading: Team gets 1,000 requests
    per minute, Business 3,000 and Enterprise 10,000. Enterprise customers can ask their account
    manager for a higher limit for a specific integration, for example a one-off migration; these
    increases are set in the contract. Before asking, check that your code caches results and uses
    webhooks instead of polling.""")
doc("apps-mobile-issues", "The mobile app won't load files",
    """If the mobile app shows Unable to load, check the status page, then check that the app is
    updated and has permission to use mobile data. Signing out and in again clears the app's cache.
    If your admin requires a managed device or a passcode, the app will not open workspace files
    until the device meets the policy. Offline files still open without a connection.""")
doc("billing-seat-change-annual", "Changing seats on an annual plan",
    """On an annual plan, you can add seats at any time and pay a prorated amount for the months left
    until renewal. You cannot lower the number of paid seats in the middle of the year: the lower
    number takes effect at the next renewal, which you can schedule in Settings › Members › Seats
    up to the day before. Seats you are not using can be given to new members at no extra cost.""")
doc("billing-free-no-card", "Does the Free plan need a payment method?",
    """No. The Free plan has no charges and does not need a card. If a card is saved on a Free
    workspace, for example from an old subscription, it is not charged unless you choose a paid plan
    or buy an add-on. You can remove a saved card in Settings › Billing › Payment method when no
    subscription is active.""")
doc("billing-quarterly", "Can I pay quarterly?",
    """Self-serve plans can be billed monthly or annually only; we do not offer quarterly billing.
    Enterprise contracts can be invoiced quarterly in advance for contracts of 250 seats or more,
    by agreement with sales. If you want to spread the cost of a Team or Business plan, monthly
    billing is the option, though it costs 20% more than annual.""")
doc("invoices-language", "Invoice language and format",
    """Invoices are issued in English by default. Customers billed in euros can choose French, German,
    Spanish, Italian or Dutch, and customers billed in yen can choose Japanese, in Settings ›
    Billing › Invoice details › Invoice language. Amounts are always in your billing currency.
    E-invoicing in XRechnung or Peppol formats is available for Enterprise customers in the
    EU.""")
doc("invoices-past-due", "Paying an overdue invoice",
    """If an invoice is past due, a banner in the app links to it. Open Settings › Billing ›
    Invoices, select the invoice marked Past due and click Pay now to pay by card or PayPal; you can
    also replace the saved card, which retries the payment at once. Workspaces downgraded to Free
    for non-payment return to their plan as soon as the invoice is paid. Invoices paid by transfer
    may take 2 business days to be marked paid.""")
doc("trial-business-vs-team", "Choosing between a Team and Business trial",
    """Start a Team trial if you need shared folders, admin roles, guests and required 2FA. Start a
    Business trial if you also want to test SAML SSO, SCIM, audit logs or data residency, or need
    more than 10 GB per file. You can switch a trial between Team and Business once from Settings
    › Billing without restarting the 14 days. The plan you choose at the end decides the price.""")
doc("discount-student-verify-fail", "Student verification failed",
    """If your school email address is not recognised, verify by uploading a student ID card, an
    enrolment letter or a tuition receipt that shows your name, your school and a date within the
    last 3 months. Reviews take up to 2 business days. Documents are deleted after the review. We
    cannot verify high school students for the student discount; their teachers can use a
    classroom workspace instead.""")


# =========================================================================== questions
# (question, {doc_id: grade}); 2 = answers the question, 1 = partial or needed context.
# Archived pages are left unjudged (0) where they would give an out-of-date answer.
QUESTIONS: list[tuple[str, dict[str, int]]] = [
    ("I got billed for another year yesterday but we don't use the product anymore. Can I get that money back?",
     {"refund-policy-current": 2, "refund-forgot-cancel": 2, "refund-how-to-request": 1, "refund-timing": 1, "cancel-how": 1, "faq-refunds": 1, "refund-annual-after-window": 1}),
    ("how do i turn on 2FA",
     {"sec-2fa-enable": 2, "sec-2fa-methods": 1, "sec-backup-codes": 1, "faq-security": 1}),
    ("What does error 429 mean from the API?",
     {"api-429": 2, "api-daily-quota": 2, "api-errors": 1, "api-limit-increase": 1, "api-limits-free": 1, "api-limits-starter": 1, "api-limits-team": 1, "api-limits-business": 1, "api-limits-enterprise": 1}),
    ("My phone got stolen and now I can't get the login codes",
     {"sec-2fa-lost-phone": 2, "sec-2fa-recovery": 2, "sec-backup-codes": 1, "sec-2fa-admin-reset": 1, "support-contact-locked-out": 1}),
    ("INV-2024-004512 has the wrong company name on it, can you fix it?",
     {"invoices-edit-details": 2, "invoices-vat-missing-past": 1, "account-workspace-name": 1, "account-receipts-expense": 1}),
    ("Is there a discount for students?",
     {"discount-student": 2, "discount-combine": 1, "discount-student-verify-fail": 1, "discount-student-expired": 1, "discount-education": 1}),
    ("do you have a cheaper price for charities",
     {"discount-nonprofit": 2, "tax-exempt-nonprofit-eu": 1, "discount-combine": 1}),
    ("we're a German company, why is there no VAT on our invoice?",
     {"tax-eu": 2, "billing-reverse-charge": 2, "invoices-add-vat-id": 1, "tax-overview": 1}),
    ("How much uptime do you guarantee and what do we get if you miss it?",
     {"sla-overview": 2, "sla-credits-business": 2, "sla-credits-enterprise": 2, "sla-claim-credit": 1, "sla-downtime-definition": 1, "sla-team-faq": 1, "plans-business": 1, "plans-enterprise": 1, "faq-refunds": 1}),
    ("The whole app was down for hours last Tuesday, how do we get compensated?",
     {"sla-claim-credit": 2, "refund-outage-credit": 2, "sla-overview": 1, "sla-credits-business": 1, "sla-credits-enterprise": 1, "faq-refunds": 1}),
    ("How do I close my account and stop paying?",
     {"cancel-how": 2, "cancel-vs-delete": 2, "account-delete": 1, "cancel-delete-workspace": 1, "cancel-app-store": 1, "cancel-what-happens": 1}),
    ("what happens to my files if I stop my subscription",
     {"cancel-what-happens": 2, "plans-downgrade-free": 2, "export-after-cancel": 1, "cancel-vs-delete": 1, "cancel-how": 1, "plans-downgrade": 1}),
    ("Can I get a copy of all our company files before we leave?",
     {"export-workspace": 2, "export-migrate": 2, "export-limits": 1, "export-after-cancel": 1, "cancel-vs-delete": 1, "export-single-folder": 1}),
    ("how long is the free trial and do I need to put in a card",
     {"trial-how": 2, "faq-trial": 2, "trial-end": 1, "cancel-trial": 1}),
    ("I was charged when my trial ran out, I didn't want to keep it",
     {"trial-charged": 2, "trial-end": 2, "refund-policy-current": 1, "refund-how-to-request": 1, "cancel-trial": 1}),
    ("Can I get a few more days to test before buying?",
     {"trial-extend": 2, "faq-trial": 1, "trial-how": 1}),
    ("How do I add another person to our team plan and how much will it cost?",
     {"seats-add": 2, "seats-invite": 2, "seats-proration-example": 1, "plans-team": 1, "billing-seat-change-annual": 1, "plans-overview": 1}),
    ("We let 5 people go, will we pay less this month?",
     {"seats-remove": 2, "refund-seats-removed": 2, "billing-seat-change-annual": 1, "seats-remove-member": 1}),
    ("Do outside contractors need a paid license to see a folder?",
     {"seats-guests": 2, "share-invite-people": 1, "share-external-restrict": 1, "seats-roles": 1, "share-links": 1}),
    ("set up Okta to automatically add and remove users",
     {"seats-scim": 2, "sec-sso-saml": 1, "seats-sso-jit": 1}),
    ("How do I hand over our account to a colleague? I'm leaving the company",
     {"seats-transfer-ownership": 2, "cancel-owner-left": 1, "seats-roles": 1, "account-delete": 1}),
    ("Where can I download my invoices?",
     {"invoices-find": 2, "invoices-receipt-vs-invoice": 1, "account-receipts-expense": 1, "invoices-resend": 1, "billing-admin-role": 1}),
    ("Can I pay by bank transfer instead of credit card?",
     {"billing-payment-methods": 2, "billing-invoice-pay": 2, "billing-wire-details": 1}),
    ("my card got declined",
     {"billing-card-declined": 2, "billing-failed-payment": 1, "billing-update-card": 1, "invoices-past-due": 1, "billing-address-change": 1}),
    ("What happens if our payment doesn't go through? Will we lose our files?",
     {"billing-failed-payment": 2, "invoices-past-due": 1, "billing-card-declined": 1}),
    ("two charges on my credit card statement on the same day",
     {"billing-double-charge": 2, "billing-unexpected-charge": 1, "billing-update-card": 1}),
    ("How much is the Business plan per user per year",
     {"plans-business": 2, "discount-annual": 1, "plans-overview": 1, "prices-usd": 1, "prices-eur": 1, "prices-gbp": 1, "prices-cad": 1, "prices-aud": 1, "prices-jpy": 1}),
    ("What's the biggest file I can upload on Team?",
     {"storage-file-size": 2, "plans-team": 2, "plans-compare-storage": 2, "api-uploads": 1}),
    ("I accidentally deleted a folder last week, can I get it back?",
     {"storage-trash": 2, "storage-ransomware": 1, "plans-compare-history": 1, "privacy-retention": 1}),
    ("Our files got encrypted by a virus, can we roll everything back?",
     {"storage-ransomware": 2, "storage-version-history": 1}),
    ("Can we keep our data stored in Europe?",
     {"privacy-data-residency": 2, "privacy-data-residency-move": 1, "privacy-transfers": 1, "faq-data": 1, "plans-business": 1}),
    ("Do you sign a DPA?",
     {"privacy-dpa": 2, "privacy-dpa-free": 2, "faq-data": 1, "privacy-gdpr-overview": 1, "privacy-transfers": 1}),
    ("Who are your subprocessors and will you tell us when that changes?",
     {"privacy-subprocessors": 2}),
    ("can we store patient records in acme cloud",
     {"privacy-hipaa": 2, "plans-enterprise": 1}),
    ("a person whose details are in our workspace asked us to erase everything about them, how do we do that?",
     {"privacy-dsar": 2, "privacy-retention": 1, "privacy-gdpr-overview": 1}),
    ("how long do you keep my files after I delete them",
     {"privacy-retention": 2, "storage-trash": 2, "faq-data": 1, "cancel-delete-workspace": 1, "plans-compare-history": 2, "privacy-account-data-after-deletion": 1}),
    ("is there a status page? how do I know if you're down",
     {"outage-status-page": 2, "outage-status-subscribe": 1, "outage-cant-sign-in": 1, "outage-updates": 1}),
    ("when do you do maintenance",
     {"outage-maintenance": 2, "sla-downtime-definition": 1, "sla-credits-business": 1, "sla-credits-enterprise": 1}),
    ("what's the API rate limit on business",
     {"api-limits-business": 2, "plans-business": 2, "api-429": 1, "api-limit-increase": 2}),
    ("Our Zapier automations keep failing with too many requests",
     {"int-zapier": 2, "api-429": 2, "api-daily-quota": 1, "api-limit-increase": 1, "api-limits-free": 1, "api-limits-starter": 1, "api-limits-team": 1, "api-limits-business": 1, "api-limits-enterprise": 1}),
    ("Is API v1 going away?",
     {"api-v1-sunset": 2, "api-v1-keys": 1, "api-changelog": 1}),
    ("our webhook endpoint got turned off, why?",
     {"api-webhook-retries": 2, "api-webhooks": 1}),
    ("how do I make an API token that never expires",
     {"api-tokens": 2, "api-token-rotation": 2, "faq-api": 1, "api-v1-keys": 1}),
    ("Can I still get my two-step login codes by text message?",
     {"sec-2fa-sms-retirement": 2, "sec-2fa-methods": 1, "faq-security": 1, "sec-2fa-sms-2022": 1}),
    ("force everyone on my team to use two factor",
     {"sec-2fa-enforce": 2, "sec-2fa-enable": 1, "plans-team": 1, "faq-security": 1}),
    ("set up single sign-on with Azure AD",
     {"sec-sso-saml": 2, "sec-sso-enforce": 1, "seats-scim": 1, "seats-sso-jit": 1}),
    ("SSO stopped working, it says Invalid SAML signature",
     {"sec-sso-certificate": 2, "sec-sso-errors": 2, "sec-owner-recovery": 1, "sec-sso-saml": 1}),
    ("I'm locked out after typing my password wrong too many times",
     {"account-locked": 2, "account-forgot-password": 1, "support-contact-locked-out": 1}),
    ("change the email I log in with",
     {"account-change-email": 2, "faq-accounts": 1}),
    ("Someone logged into my account from another country",
     {"sec-suspicious-activity": 2, "sec-login-alerts": 2, "account-sessions": 1, "account-change-password": 1, "account-locked": 1}),
    ("Do I have to pay sales tax in Texas?",
     {"tax-us": 2, "tax-us-exemption": 1, "tax-overview": 1}),
    ("We're a public school in Ohio and don't pay tax, how do we get it off our bill?",
     {"tax-us-exemption": 2, "tax-us": 1, "discount-education": 1}),
    ("Australian company here, we have an ABN, why are you charging GST",
     {"tax-australia": 2, "invoices-add-vat-id": 1, "billing-reverse-charge": 1, "tax-overview": 1}),
    ("I'm in Quebec, what taxes will be added?",
     {"tax-canada": 2, "prices-cad": 1, "tax-overview": 1}),
    ("What does it cost in euros?",
     {"prices-eur": 2, "billing-currency": 1, "tax-eu": 1}),
    ("Can I switch from paying in dollars to pounds?",
     {"billing-currency": 2, "prices-gbp": 1, "billing-address-change": 1}),
    ("I live in France and changed my mind 5 days after signing up",
     {"refund-eu-withdrawal": 2, "refund-policy-current": 2, "refund-how-to-request": 1}),
    ("I subscribed through the iPhone app and want my money back",
     {"refund-app-store": 2, "cancel-app-store": 1, "billing-app-store": 1}),
    ("how do I stop my subscription on android",
     {"cancel-app-store": 2, "billing-app-store": 1}),
    ("Is there a program for startups?",
     {"discount-startup": 2, "discount-combine": 1}),
    ("Can I use two discount codes together?",
     {"discount-promo-code": 2, "discount-combine": 2}),
    ("Why did my price go up?",
     {"plans-price-change-2024": 2, "discount-student-expired": 1, "plans-legacy-pro": 1}),
    ("sync on my mac has been stuck for hours",
     {"apps-sync-stuck": 2, "outage-status-page": 1, "storage-full": 1, "storage-blocked-files": 1}),
    ("We're out of space, how do we get more without adding users?",
     {"storage-add-on": 2, "storage-full": 2, "storage-what-counts": 1}),
    ("Can acme employees read my documents?",
     {"privacy-support-access": 2, "faq-security": 1, "sec-encryption": 1}),
    ("Do you train AI on our files?",
     {"privacy-ai": 2, "faq-data": 1}),
    ("Is there an SLA on the Team plan?",
     {"sla-team-faq": 2, "sla-overview": 2, "sla-2022": 1, "refund-outage-credit": 2, "faq-refunds": 1}),
    ("We want to get out of our Enterprise agreement",
     {"ent-cancel": 2, "ent-billing": 1}),
    ("what happens if we go over our enterprise seat count",
     {"ent-true-up": 2, "ent-billing": 1}),
    ("How do I get your SOC 2 report?",
     {"sec-compliance-reports": 2, "ent-procurement": 1}),
    ("got a document numbered CN-2025-000041, what is it?",
     {"invoices-numbering": 2, "invoices-edit-details": 1, "invoices-vat-missing-past": 1}),
    ("Do I need to give you my GSTIN?",
     {"tax-india": 2, "billing-reverse-charge": 1, "invoices-add-vat-id": 1, "refund-india": 1, "tax-overview": 1}),
]


def render() -> dict[str, str]:
    """The three files' contents, by file name; checks the data on the way."""
    ids = {d["doc_id"] for d in CORPUS}
    assert len(ids) == len(CORPUS), "duplicate doc_id"
    for d in CORPUS:
        n = len(d["text"].split())
        assert 40 <= n <= 120, (d["doc_id"], n)
    corpus = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in CORPUS)
    questions = "".join(
        json.dumps({"query_id": f"q{i:02d}", "question": q}, ensure_ascii=False) + "\n"
        for i, (q, _) in enumerate(QUESTIONS, 1)
    )
    golden = io.StringIO()
    out = csv.writer(golden, lineterminator="\n")
    out.writerow(["query_id", "doc_id", "relevance"])
    for i, (_, grades) in enumerate(QUESTIONS, 1):
        assert 2 in grades.values(), i
        for doc_id, grade in sorted(grades.items(), key=lambda kv: (-kv[1], kv[0])):
            assert doc_id in ids, (i, doc_id)
            assert grade in (1, 2), (i, doc_id)
            out.writerow([f"q{i:02d}", doc_id, grade])
    return {"corpus.jsonl": corpus, "questions.jsonl": questions, "golden.csv": golden.getvalue()}


def main() -> None:
    for name, text in render().items():
        (HERE / name).write_bytes(text.encode("utf-8"))
    print(f"{len(CORPUS)} chunks, {len(QUESTIONS)} questions, "
          f"{sum(len(g) for _, g in QUESTIONS)} judgments")


if __name__ == "__main__":
    main()
