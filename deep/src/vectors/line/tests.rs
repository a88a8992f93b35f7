use super::*;

#[test]
fn quoted_strings_read_back_whatever_they_hold() {
    for s in ["", "1.5", " -INF", "a\"b\\c", "tab\there", "new\nline", "é"] {
        let line = format!("{} ff", quote(s));
        let got = tokens(&line).unwrap();
        assert_eq!(
            got,
            vec![Token::Quoted(s.into()), Token::Bare("ff".into())],
            "{s:?}"
        );
    }
}

#[test]
fn bad_columns_say_what_is_wrong() {
    assert!(tokens("\"open").unwrap_err().contains("not closed"));
    assert!(tokens("\"a\"b").unwrap_err().contains("end its column"));
    let e = parse_code(DataType::Float8E4M3FN, &Token::Bare("1ff".into())).unwrap_err();
    assert!(e.contains("more than the 8 bits"), "{e}");
    assert!(parse_code(DataType::Float, &Token::Bare("xyz".into())).is_err());
    assert_eq!(
        parse_code(DataType::Int4, &Token::Bare("0xf".into())),
        Ok(15)
    );
    assert!(parse_tag("page").is_err());
    assert!(parse_tag("law/exact").unwrap_err().contains("no authority"));
}

fn quote(s: &str) -> String {
    let mut out = String::new();
    push_item(
        &mut out,
        &Items::Strings(vec![s.into()]),
        DataType::String,
        0,
    );
    out
}

fn hex(t: DataType, code: u128) -> String {
    let mut s = String::new();
    push_item(&mut s, &Items::Codes(vec![code]), t, 0);
    s
}

#[test]
fn codes_are_padded_to_their_type() {
    assert_eq!(hex(DataType::Float, 0x3f80_0000), "3f800000");
    assert_eq!(hex(DataType::Float16, 1), "0001");
    // BOOL is stored in a byte, as ONNX stores it.
    assert_eq!(hex(DataType::Bool, 1), "01");
    assert_eq!(hex(DataType::Float4E2M1, 0xf), "f");
}
