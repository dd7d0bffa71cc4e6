//! i915 perf streams (next commit).
