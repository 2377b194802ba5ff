//! Verdicts: cost-aware comparisons, fits that converge or say so, sides that cannot attack.
