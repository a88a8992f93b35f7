//! The text of a vector file (docs/vectors.md, "Format"): a header of `# key value` lines
//! naming the pair, then one line per element, `input expected authority/class`, codes in hex
//! and strings quoted. Written and read here only, so that both sides agree.

use super::elements::{Items, Tag};
use crate::index::{Authority, CaseAttribute, InputClass};
use vocab::{DataType, OpKind};

/// The format's version, in the first header line.
pub(crate) const FORMAT: u32 = 1;

/// What a file's header names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Header {
    /// Cast or CastLike.
    pub op: OpKind,
    /// The operator's since-version.
    pub version: u32,
    /// Source type.
    pub from: DataType,
    /// Target type.
    pub to: DataType,
    /// Attributes other than `to`.
    pub attrs: Vec<CaseAttribute>,
}

/// The attributes as the header writes them: space-separated, `-` for none.
pub(crate) fn attrs_text(attrs: &[CaseAttribute]) -> String {
    if attrs.is_empty() {
        return "-".into();
    }
    attrs
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads the header lines of a file (`# key value`); `None` for a line that is no header line.
/// The keys it needs are `op`, `version`, `from`, `to` and `attributes`; others are notes.
pub(crate) fn header_entry(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix('#')?.trim();
    Some(rest.split_once(' ').unwrap_or((rest, "")))
}

/// The header of the `# key value` pairs read, or what is missing or wrong.
pub(crate) fn header(pairs: &[(String, String)]) -> Result<Header, String> {
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim())
            .ok_or_else(|| format!("the header has no `# {key}` line"))
    };
    let op = get("op")?;
    let op = OpKind::from_name(op)
        .filter(|o| *o != OpKind::Concat)
        .ok_or_else(|| format!("header `op`: {op:?} is not Cast or CastLike"))?;
    let version = get("version")?;
    let version = version
        .parse()
        .map_err(|_| format!("header `version`: {version:?} is no number"))?;
    let dtype = |key: &str| -> Result<DataType, String> {
        let v = get(key)?;
        DataType::from_name(v).ok_or_else(|| format!("header `{key}`: no type {v:?}"))
    };
    let (from, to) = (dtype("from")?, dtype("to")?);
    let attrs = match get("attributes")? {
        "-" | "" => Vec::new(),
        text => text
            .split_whitespace()
            .map(|a| {
                CaseAttribute::parse(a)
                    .ok_or_else(|| format!("header `attributes`: no attribute {a:?}"))
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(Header {
        op,
        version,
        from,
        to,
        attrs,
    })
}

/// Hex digits of a code of `t`: enough for its bits.
fn width(t: DataType) -> usize {
    (t.bit_width() as usize).div_ceil(4).max(1)
}

/// Appends element `i` of `items` of type `t` to `out`, as its column writes it: a code in
/// lowercase hex zero-padded to the type's width, a string quoted (no allocation per element:
/// an exhaustive file has 2^32).
pub(crate) fn push_item(out: &mut String, items: &Items, t: DataType, i: usize) {
    use std::fmt::Write as _;
    match items {
        Items::Codes(c) => {
            let _ = write!(out, "{:0w$x}", c[i], w = width(t));
        }
        Items::Strings(s) => push_quoted(out, &s[i]),
    }
}

/// Appends `s` quoted: `"` and `\` escaped, control characters as `\u{..}`.
fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The tag a column names.
pub(crate) fn parse_tag(text: &str) -> Result<Tag, String> {
    let (a, c) = text
        .split_once('/')
        .ok_or_else(|| format!("{text:?} is no authority/class"))?;
    let authority = Authority::ALL
        .into_iter()
        .find(|x| x.label() == a)
        .ok_or_else(|| format!("no authority {a:?} (page, ieee, data, reading)"))?;
    let class = InputClass::from_label(c).ok_or_else(|| format!("no input class {c:?}"))?;
    Ok(Tag { authority, class })
}

/// One column of a line: a bare token, or a quoted string unescaped.
#[derive(Debug, PartialEq)]
pub(crate) enum Token {
    /// A token without quotes.
    Bare(String),
    /// A quoted string.
    Quoted(String),
}

/// The columns of a line, split at white space outside quotes.
pub(crate) fn tokens(line: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&first) = chars.peek() else {
            return Ok(out);
        };
        if first != '"' {
            let mut t = String::new();
            while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                t.push(c);
                chars.next();
            }
            out.push(Token::Bare(t));
            continue;
        }
        chars.next();
        let mut s = String::new();
        loop {
            match chars.next() {
                None => return Err("a quoted string is not closed".into()),
                Some('"') => break,
                Some('\\') => match chars.next() {
                    Some('"') => s.push('"'),
                    Some('\\') => s.push('\\'),
                    Some('u') => {
                        let mut hexs = String::new();
                        if chars.next() != Some('{') {
                            return Err("`\\u` must be followed by `{hex}`".into());
                        }
                        for c in chars.by_ref() {
                            if c == '}' {
                                break;
                            }
                            hexs.push(c);
                        }
                        let c = u32::from_str_radix(&hexs, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("`\\u{{{hexs}}}` is no character"))?;
                        s.push(c);
                    }
                    other => return Err(format!("unknown escape `\\{}`", other.unwrap_or(' '))),
                },
                Some(c) => s.push(c),
            }
        }
        if chars.peek().is_some_and(|c| !c.is_whitespace()) {
            return Err("a quoted string must end its column".into());
        }
        out.push(Token::Quoted(s));
    }
}

/// A code of `t` from a hex column (an optional `0x`, at most the type's bits).
pub(crate) fn parse_code(t: DataType, token: &Token) -> Result<u128, String> {
    let Token::Bare(text) = token else {
        return Err(format!(
            "a {} element is hex, not a quoted string",
            t.name()
        ));
    };
    let digits = text.strip_prefix("0x").unwrap_or(text);
    let code = u128::from_str_radix(digits, 16)
        .ok()
        .filter(|_| !digits.is_empty() && digits.len() <= 32)
        .ok_or_else(|| format!("{text:?} is no hex code"))?;
    if t.bit_width() < 128 && code >> t.bit_width() != 0 {
        return Err(format!(
            "{text:?} has more than the {} bits of {}",
            t.bit_width(),
            t.name()
        ));
    }
    Ok(code)
}

/// A STRING element from a quoted column.
pub(crate) fn parse_string(token: &Token) -> Result<String, String> {
    match token {
        Token::Quoted(s) => Ok(s.clone()),
        Token::Bare(t) => Err(format!("a STRING element is quoted, not {t:?}")),
    }
}

#[cfg(test)]
mod tests;
