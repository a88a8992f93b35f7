use super::*;
use crate::findings::finding::Verdict;
use crate::findings::group::{absorb, causes_of, Classes};
use crate::index::{CaseAttribute, InputClass};
use vocab::{DataType, OpKind};

fn encoded(encoding: Encoding) -> CaseEntry {
    CaseEntry {
        case: format!("cast19_encoding-{}_FLOAT_to_FLOAT8E4M3FN", encoding.name()),
        op: OpKind::Cast,
        version: 19,
        opset: 19,
        from: DataType::Float,
        to: DataType::Float8E4M3FN,
        attributes: vec![CaseAttribute::Saturate(false)],
        shape: CaseShape::Encoded {
            encoding,
            initializer: true,
        },
        classes: Vec::new(),
        period: None,
    }
}

fn refusal() -> Judged {
    Judged::whole(
        FindingClass::Failure(FailureKind::Error),
        FailureKind::Error,
        "cannot parse dims",
    )
}

fn elements(diagnosis: Option<Behaviour>) -> Judged {
    let reading = Citation {
        section: Section::NarrowerFloat,
        rule: "saturate=0 gives NaN".into(),
        source: String::new(),
    };
    Judged {
        class: FindingClass::Input(InputClass::Overflow),
        authority: Some((Authority::Page, reading)),
        diagnosis,
        elements: 2,
        examples: Vec::new(),
        refusal: None,
    }
}

#[test]
fn a_variant_refused_while_its_twin_runs_is_the_loaders_defect_cited_to_onnx_proto() {
    let entry = encoded(Encoding::PackedDims);
    for twin in [Twin::Passed, Twin::Differed] {
        let mut j = [refusal()];
        attribute(&entry, twin, &mut j);
        assert_eq!(j[0].class, FindingClass::Shape(entry.shape));
        assert_eq!(j[0].diagnosis, Some(Behaviour::PackedDimsRefused));
        let (authority, citation) = j[0].authority.clone().unwrap();
        assert_eq!(
            (authority, citation.section),
            (Authority::Page, Section::WireFormat)
        );
        assert!(
            citation.rule.contains("dims (field 1)"),
            "{}",
            citation.rule
        );
        // Grouped, it is a bug that keeps the runtime's words, and a cause of its own whose
        // text is the loader's behaviour.
        let mut classes = Classes::new();
        let [j] = j;
        absorb(&mut classes, "rt", "1", &entry, j);
        let found: Vec<_> = classes.into_values().collect();
        assert_eq!(found[0].verdict, Verdict::Disagrees);
        assert_eq!(found[0].message.as_deref(), Some("cannot parse dims"));
        let c = causes_of(&found);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].text, Behaviour::PackedDimsRefused.text());
    }
}

#[test]
fn a_variant_refused_where_the_pair_never_runs_stays_a_refusal() {
    let mut j = [refusal()];
    attribute(&encoded(Encoding::TypedFields), Twin::NotRun, &mut j);
    assert_eq!(j[0].class, FindingClass::Failure(FailureKind::Error));
    assert_eq!(j[0].authority, None);
    assert_eq!(j[0].diagnosis, None);
}

#[test]
fn a_zero_left_out_and_read_as_absent_is_the_loaders_only_when_the_twin_passes() {
    let entry = encoded(Encoding::ZeroOmitted);
    // saturate=0 written without its i: the elements saturate as under the default.
    let mut j = [elements(Some(Behaviour::SaturateIgnored))];
    attribute(&entry, Twin::Passed, &mut j);
    assert_eq!(j[0].diagnosis, Some(Behaviour::OmittedZeroMisread));
    assert_eq!(
        j[0].authority.as_ref().unwrap().1.section,
        Section::WireFormat
    );
    // Where the plain twin differs too, the kernel may ignore saturate=0 itself: left as it
    // is, for the trigger of the causes to tell.
    let mut j = [elements(Some(Behaviour::SaturateIgnored))];
    attribute(&entry, Twin::Differed, &mut j);
    assert_eq!(j[0].diagnosis, Some(Behaviour::SaturateIgnored));
    assert_eq!(j[0].class, FindingClass::Input(InputClass::Overflow));
}

#[test]
fn bit_patterns_read_as_numbers_are_the_loaders_whatever_the_twin_did() {
    let entry = encoded(Encoding::TypedFields);
    let mut j = [elements(Some(Behaviour::TypedFieldsReadAsNumbers))];
    attribute(&entry, Twin::Differed, &mut j);
    let (authority, citation) = j[0].authority.clone().unwrap();
    assert_eq!(authority, Authority::Page);
    assert_eq!(citation.section, Section::TensorValues);
    assert!(citation.rule.contains("int32_data (field 5)"));
    assert_eq!(j[0].class, FindingClass::Shape(entry.shape));
}

#[test]
fn cases_written_as_onnx_writes_them_are_never_the_loaders() {
    let mut entry = encoded(Encoding::PackedDims);
    entry.shape = CaseShape::Values;
    let mut j = [refusal(), elements(None)];
    attribute(&entry, Twin::Passed, &mut j);
    assert_eq!(j[0].authority, None);
    assert_eq!(j[1].diagnosis, None);
}
