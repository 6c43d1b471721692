//! Pipeline-overridable constants.

use wgpu_core::naga::back::PipelineConstants;

/// Collects `WGPUConstantEntry` (key, value) pairs. Non-finite values and
/// keys given twice are validation errors.
pub(crate) fn constants<'a>(entries: impl IntoIterator<Item = (&'a str, f64)>) -> Result<PipelineConstants, String> {
    let mut out = PipelineConstants::default();
    for (key, value) in entries {
        if !value.is_finite() {
            return Err(format!("constant {key:?} has the non-finite value {value}"));
        }
        if out.insert(key.to_string(), value).is_some() {
            return Err(format!("constant {key:?} is given more than once"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_unique_constants() {
        let c = constants([("a", 1.0), ("1", -2.5)]).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c.get("a"), Some(&1.0));
        assert!(constants([("a", f64::NAN)]).unwrap_err().contains("non-finite"));
        assert!(constants([("a", f64::INFINITY)]).is_err());
        assert!(constants([("a", f64::NEG_INFINITY)]).is_err());
        assert!(constants([("a", 1.0), ("a", 2.0)]).unwrap_err().contains("more than once"));
        assert!(constants([]).unwrap().is_empty());
    }
}
