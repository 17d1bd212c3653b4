"""Time and peak memory of one call, in the process that makes it (Linux's /proc).

``measured(function)`` resets the process's peak RSS to its current RSS
(``/proc/self/clear_refs``, Linux >= 4.0), calls ``function()`` and reads the peak back
(``VmHWM``), so the number is what the call added above what was already there; where the
reset is refused, ``ru_maxrss`` (the peak since the process started) stands in and
``exact_peak`` says so. The benchmarks run each call in a fresh process, so that imports
and caches are cold and the peak is the call's own.
"""

from __future__ import annotations

import gc
import resource
import time

__all__ = ["measured", "reset_peak", "status_kib"]


def status_kib(key: str) -> int | None:
    """A ``/proc/self/status`` field in KiB (``"VmRSS"``, ``"VmHWM"``), None if unreadable."""
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def reset_peak() -> bool:
    """Reset this process's peak RSS to its current RSS; False where that is refused."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def measured(function) -> dict:
    """``function()`` timed (wall and CPU seconds), with the peak RSS it added (MiB).

    Returns ``{"wall_s", "cpu_s", "peak_mib", "peak_rss_mib", "exact_peak", "value"}``.
    """
    gc.collect()
    exact = reset_peak()
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    before = status_kib("VmRSS") or max_rss
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = ((status_kib("VmHWM") if exact else None)
            or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return {"wall_s": wall, "cpu_s": cpu, "peak_mib": max(peak - before, 0) / 1024,
            "peak_rss_mib": peak / 1024, "exact_peak": exact, "value": value}
