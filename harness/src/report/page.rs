//! Text made safe for the pages every part of the project writes (the run's reports, the
//! scoreboard, the coverage tables, the diffs, the deep findings): one HTML escaper and the
//! Markdown cell rules, so that a hostile message cannot break a table or inject markup in
//! one page and not in another; and the one HTML page shell.

/// `s` escaped for HTML text and attribute values (quoted with `"` or `'`); the one escaper
/// of every page the project writes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Text safe inside a Markdown table cell: no pipe, no line break.
pub fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Text safe in Markdown table cells and lines that a viewer renders as HTML too: a
/// [`md_cell`] that opens no tag.
pub fn md_text(s: &str) -> String {
    md_cell(s).replace('<', "&lt;")
}

/// The start of every HTML page the project writes, up to and including `<body>`: one doctype,
/// encoding and viewport for the report, the scoreboard and the findings. `title` is text
/// (escaped here); `style` is the page's own CSS.
pub fn html_open(title: &str, style: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>{}</title>\
         <style>{style}</style></head><body>",
        escape(title)
    )
}

/// The end of every page [`html_open`] starts.
pub const HTML_CLOSE: &str = "</body></html>\n";
