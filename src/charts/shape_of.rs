//! Reading a manifest into a [`ReportShape`]: the shape it records, or, for a manifest
//! from before volley recorded shapes, the [`legacy`] reading.

use serde_json::Value;

use super::axes::Axis;
use super::legacy;
use super::shape::{CostChart, DetailChart, ReportShape};

impl ReportShape {
    /// The shape a manifest records. Keys read: `ruleset_label` (else `ruleset`) for the
    /// name, `axes`, `turn` (default `turn`), `detail_charts` and `cost_charts` (missing:
    /// none), `battle.seatings`. A manifest
    /// without `axes` is from before volley recorded them: [`legacy::shape`].
    pub fn of_manifest(manifest: &Value) -> ReportShape {
        let Some(axes) = manifest.get("axes").and_then(Value::as_array) else {
            return legacy::shape(manifest);
        };
        ReportShape {
            ruleset: manifest["ruleset_label"]
                .as_str()
                .or_else(|| manifest["ruleset"].as_str())
                .unwrap_or("?")
                .to_string(),
            axes: axes.iter().filter_map(Axis::of_json).collect(),
            turn: manifest["turn"].as_str().unwrap_or("turn").to_string(),
            cost_unit: manifest["cost_unit"].as_str().unwrap_or("points").to_string(),
            details: manifest["detail_charts"]
                .as_array()
                .map(|a| a.iter().filter_map(DetailChart::of_json).collect())
                .unwrap_or_default(),
            costs: manifest["cost_charts"]
                .as_array()
                .map(|a| a.iter().filter_map(CostChart::of_json).collect())
                .unwrap_or_default(),
            seatings: super::shape::pooled_seatings(manifest),
        }
    }
}
