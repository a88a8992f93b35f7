//! The serde forms round-trip every name of the tables and refuse others.

use super::*;

#[test]
fn every_name_round_trips_and_unknown_names_are_refused() {
    for v in OpVersion::all() {
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, format!("\"{v}\""));
        assert_eq!(serde_json::from_str::<OpVersion>(&json).unwrap(), v);
    }
    for &t in DataType::ALL {
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(json, format!("\"{}\"", t.name()));
        assert_eq!(serde_json::from_str::<DataType>(&json).unwrap(), t);
    }
    assert!(serde_json::from_str::<OpVersion>("\"Cast-20\"").is_err());
    assert!(serde_json::from_str::<OpKind>("\"Relu\"").is_err());
    assert!(serde_json::from_str::<DataType>("\"FLOAT7\"").is_err());
}
