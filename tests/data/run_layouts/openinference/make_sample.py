"""Write the OpenInference sample with the OpenInference instrumentation itself:
``sample_console_spans.json`` and ``sample_otlp.json`` (run from anywhere, offline, in a
throwaway environment).

What it does: the retriever of the LlamaIndex sample (``../llamaindex/make_sample.py``:
eight nodes in an in-memory ``VectorStoreIndex``, a word-count embedding, top 3) is
instrumented with ``LlamaIndexInstrumentor`` from openinference-instrumentation-llama-index
and asked three of the questions of that sample (q2, q4, q5: ``QUESTIONS`` below), one
``retrieve`` call (one trace) each; then a retriever that finds nothing (``NoHits``, a
``BaseRetriever`` written here) is asked q3, a trace whose two RETRIEVER spans list no
document. The
OpenTelemetry SDK's ``ConsoleSpanExporter`` writes every finished span to
``sample_console_spans.json`` as it prints them (``span.to_json()``, pretty JSON one
after the other: the RETRIEVER spans and the EMBEDDING spans inside them; the embedding vectors are left
out with the instrumentation's own ``TraceConfig(hide_embeddings_vectors=True)``, which
writes ``"__REDACTED__"`` in their place, to keep the file small). The same spans,
kept by an ``InMemorySpanExporter``, are encoded as the OTLP exporters send them
(``encode_spans`` of opentelemetry-exporter-otlp-proto-common) and written with
protobuf's ``MessageToJson``, on one line: ``sample_otlp.json``. Protobuf's JSON writes the bytes of
``traceId`` and ``spanId`` in base64, where the OTLP/JSON specification asks for hex (as
the OpenTelemetry Collector's file exporter writes them); the ids are read as text either
way.

Nothing is downloaded and no model is loaded. Span and trace ids are random and the
times are the clock's, so each run writes other ids and times; the documents, scores and
order are the same every time.

The versions it was run with::

    python3 -m venv /tmp/toolvenv
    /tmp/toolvenv/bin/pip install llama-index-core==0.14.20 \\
        openinference-instrumentation-llama-index==4.6.1 opentelemetry-sdk==1.45.2 \\
        opentelemetry-exporter-otlp-proto-common==1.45.2
    /tmp/toolvenv/bin/python tests/data/run_layouts/openinference/make_sample.py

The tools are imported inside the functions, so that pytest's doctest collection can
import this file where they are not installed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTIONS = ("q2", "q4", "q5")  # the relevant doc second; two relevant docs; none found


def llamaindex_sample():
    """The LlamaIndex sample's script, as a module (its corpus, questions and index)."""
    spec = importlib.util.spec_from_file_location(
        "llamaindex_make_sample", HERE.parent / "llamaindex" / "make_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    from google.protobuf.json_format import MessageToJson
    from llama_index.core.retrievers import BaseRetriever
    from openinference.instrumentation import TraceConfig
    from openinference.instrumentation.llama_index import LlamaIndexInstrumentor
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    class NoHits(BaseRetriever):
        """A retriever that finds nothing."""

        def _retrieve(self, query_bundle):
            return []

    sample = llamaindex_sample()
    retriever = sample.build_index().as_retriever(similarity_top_k=3)
    memory = InMemorySpanExporter()
    with open(HERE / "sample_console_spans.json", "w", encoding="utf-8") as console:
        provider = TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=console)))
        provider.add_span_processor(SimpleSpanProcessor(memory))
        LlamaIndexInstrumentor().instrument(
            tracer_provider=provider, config=TraceConfig(hide_embeddings_vectors=True))
        try:
            for query_id, question, _ in sample.QUESTIONS:
                if query_id in QUESTIONS:
                    retriever.retrieve(question)
            NoHits().retrieve({q: text for q, text, _ in sample.QUESTIONS}["q3"])
        finally:
            LlamaIndexInstrumentor().uninstrument()
            provider.shutdown()
    request = encode_spans(memory.get_finished_spans())
    (HERE / "sample_otlp.json").write_text(MessageToJson(request, indent=None) + "\n",
                                           encoding="utf-8")


if __name__ == "__main__":
    main()
