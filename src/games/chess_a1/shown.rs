//! How a call reads when a report shows it to a student.

/// A call shown to a student: long calls keep their start.
pub fn short(call: &str) -> String {
    const MAX: usize = 400;
    if call.len() <= MAX {
        return call.to_string();
    }
    let mut cut = MAX;
    while !call.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} ...", &call[..cut])
}
