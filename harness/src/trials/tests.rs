//! Unit tests of one trial: setup guards, known failures and the comparison rule.

use super::*;
use crate::known::{KnownFailure, Match, Outcome, ToleranceOverride};
use crate::testkit::{lists, scratch};

fn case_spec(name: &str, dir: PathBuf, indexed: bool) -> Spec {
    Spec {
        name: name.into(),
        kind: SpecKind::Case(CaseSpec {
            dir,
            release: "1.22.0".into(),
            case: "test_x".into(),
            op_type: Some("Cast".into()),
            opset: Some(25),
            indexed,
        }),
    }
}

#[test]
fn guard_and_missing_directories_fail_with_their_reason() {
    let ctx = Context::default();
    let guard = Spec {
        name: "g".into(),
        kind: SpecKind::Guard("run the fetch".into()),
    };
    let rec = run(&ctx, &guard).record;
    assert_eq!(
        (rec.outcome, rec.message.as_deref()),
        (Outcome::Fail, Some("run the fetch"))
    );
    let rec = run(
        &ctx,
        &case_spec("onnx-1.22.0/opset25/test_x", "/nonexistent/x".into(), true),
    )
    .record;
    let labels = (rec.rule, rec.op_version.map(|v| v.to_string()));
    assert_eq!(labels, (RuleName::OnnxDefault, Some("Cast-25".into())));
    assert_eq!(rec.outcome, Outcome::Fail);
    let msg = rec.message.unwrap_or_default();
    assert!(msg.contains("listed in index.json but missing"), "{msg}");
    assert!(msg
        .contains("rerun: cargo test --test onnx_backend -- --exact 'onnx-1.22.0/opset25/test_x'"));
    assert_eq!(
        (rec.release.as_deref(), rec.opset),
        (Some("1.22.0"), Some(25))
    );
}

#[test]
fn known_failure_entries_apply_to_failing_trials() {
    let dir_tmp = scratch("trials-known");
    let dir = dir_tmp.path();
    let mut ctx = Context::default();
    let entry = |expect: &str| KnownFailure {
        trials: vec!["*test_x*".into()],
        types: Vec::new(),
        kind: "upstream data corrupt".into(),
        reason: "evidence".into(),
        expect: vec![expect.into()],
        failure_kind: None,
    };
    ctx.known = lists(vec![], vec![entry("test_x")]);
    let spec = case_spec("own/test_x", dir.join("test_x"), false);
    let judged = run(&ctx, &spec);
    assert_eq!(judged.record.outcome, Outcome::KnownFailure);
    assert_eq!(
        judged.ignored_note.as_deref(),
        Some("known failure: upstream data corrupt")
    );
    // The same entry in the data list makes it a data problem, counted apart.
    ctx.known = lists(vec![entry("test_x")], vec![entry("test_x")]);
    let judged = run(&ctx, &spec);
    assert_eq!(judged.record.outcome, Outcome::DataProblem);
    assert_eq!(
        judged.ignored_note.as_deref(),
        Some("upstream data problem: upstream data corrupt")
    );
    ctx.known = lists(vec![], vec![entry("some other reason")]);
    let judged = run(&ctx, &spec);
    assert_eq!(
        (judged.record.outcome, judged.ignored_note),
        (Outcome::Fail, None)
    );
}

#[test]
fn rule_choice_follows_mode_and_overrides() {
    let mut ctx = Context::default();
    ctx.tolerances.entries.push(ToleranceOverride {
        pattern: "opset13/".into(),
        how: Match::Substring,
        rtol: 0.01,
        atol: 0.0,
        reason: "why".into(),
    });
    assert_eq!(ctx.rule_for("a/opset19/x").name, RuleName::OnnxDefault);
    assert_eq!(
        ctx.rule_for("a/opset13/x").label(),
        "override rtol=1e-2 atol=0e0"
    );
    ctx.strict = true;
    assert_eq!(ctx.rule_for("a/opset13/x").rule, Rule::Strict);
}
