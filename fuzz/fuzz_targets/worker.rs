//! Bytes -> the worker protocol's line parsers (`parse_hello`, `parse_reply`), the only code
//! that reads what a foreign runtime writes on its stdout. The first line is a hello, every
//! further line an answer to request 7. Beyond never panicking, each verdict is checked
//! against a reading of the same line written here with serde_json's typed access, so a
//! parser that accepts a wrong id or calls a failure a success is a finding.
#![no_main]

use harness::fuzzing::{parse_hello, parse_reply, Failure, PROTOCOL_VERSION};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The id of the request every answer line is read against.
const ID: u64 = 7;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    if let Some(first) = lines.next() {
        check_hello(first);
    }
    for line in lines {
        check_reply(line);
    }
});

fn parsed(line: &str) -> Option<serde_json::Map<String, Value>> {
    match serde_json::from_str(line) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

fn check_hello(line: &str) {
    let verdict = parse_hello(line);
    let map = parsed(line);
    let well_formed = map.as_ref().is_some_and(|m| {
        m.get("protocol").and_then(Value::as_u64) == Some(PROTOCOL_VERSION)
            && m.get("runtime").is_some_and(Value::is_string)
            && m.get("version").is_some_and(Value::is_string)
    });
    match verdict {
        Ok(hello) => {
            assert!(well_formed, "accepted a bad hello: {line:?}");
            let m = map.expect("well formed");
            assert_eq!(Some(hello.runtime.as_str()), m["runtime"].as_str());
            assert_eq!(Some(hello.version.as_str()), m["version"].as_str());
        }
        Err(message) => {
            assert!(!well_formed, "refused a good hello {line:?}: {message}");
            assert!(!message.is_empty(), "an empty refusal for {line:?}");
        }
    }
}

fn check_reply(line: &str) {
    let verdict = parse_reply(line, ID);
    let Some(map) = parsed(line) else {
        assert!(
            matches!(verdict, Err(Failure::Protocol(_))),
            "a line that is not a JSON object was not a protocol violation: {line:?} -> {verdict:?}"
        );
        return;
    };
    let id_matches = map.get("id").and_then(Value::as_u64) == Some(ID);
    let ok = map.get("ok").and_then(Value::as_bool);
    let stage = map.get("stage").and_then(Value::as_str);
    let error = map.get("error").and_then(Value::as_str);
    match verdict {
        Ok(Ok(_)) => assert!(
            id_matches && ok == Some(true),
            "a success without id {ID} and \"ok\": true: {line:?}"
        ),
        Ok(Err(Failure::Unsupported(m))) => {
            assert!(
                id_matches && ok == Some(false) && stage == Some("load"),
                "{line:?}"
            );
            assert_eq!(Some(m.as_str()), error, "the worker's text was not kept");
        }
        Ok(Err(Failure::Error { stage: s, message })) => {
            assert!(id_matches && ok == Some(false), "{line:?}");
            assert!(
                ["input", "run", "output"].contains(&s.as_str()),
                "stage {s:?}"
            );
            assert_eq!(Some(s.as_str()), stage);
            assert_eq!(
                Some(message.as_str()),
                error,
                "the worker's text was not kept"
            );
        }
        Ok(Err(other)) => panic!("a worker's answer parsed as {other:?}: {line:?}"),
        Err(Failure::Protocol(m)) => {
            assert!(!m.is_empty(), "an empty protocol message for {line:?}");
            let good_failure = ok == Some(false)
                && error.is_some()
                && matches!(stage, Some("load" | "input" | "run" | "output"));
            assert!(
                !(id_matches && (ok == Some(true) || good_failure)),
                "refused a well-formed answer {line:?}: {m}"
            );
        }
        Err(other) => panic!("a parse error that is not a protocol violation: {other:?}"),
    }
}
