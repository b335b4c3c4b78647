//! A line plot of values over plies (PlanetWars' populations over time), as inline SVG. Its
//! cursor, a vertical line, is moved by the viewer's script to the ply shown.

use std::fmt::Write as _;

use super::escape;

/// Plot size in pixels.
const WIDTH: f64 = 520.0;
const HEIGHT: f64 = 170.0;
/// Room for the axis labels (left) and the legend (top).
const LEFT: f64 = 52.0;
const TOP: f64 = 22.0;
const BOTTOM: f64 = 22.0;

/// `series` (name, colour, one value per ply) as an SVG plot with `measure` on its vertical
/// axis. The cursor line carries `data-x0` and `data-step`: ply `n` is at `x0 + n * step`.
pub fn over_plies(measure: &str, series: &[(String, &str, Vec<f64>)]) -> String {
    let plies = series.iter().map(|(_, _, v)| v.len()).max().unwrap_or(0);
    let top =
        series.iter().flat_map(|(_, _, v)| v.iter().copied()).filter(|v| v.is_finite()).fold(0.0, f64::max);
    let top = if top > 0.0 { top } else { 1.0 };
    let (plot_w, plot_h) = (WIDTH - LEFT - 10.0, HEIGHT - TOP - BOTTOM);
    let step = plot_w / (plies.saturating_sub(1).max(1)) as f64;
    let x = |i: usize| LEFT + i as f64 * step;
    let y = |v: f64| TOP + plot_h * (1.0 - v.max(0.0) / top);
    let mut out = String::new();
    let _ = write!(
        out,
        r##"<svg class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img"><rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#ccc"/>"##
    );
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" text-anchor="end" fill="#555">{}</text><text x="{}" y="{}" font-size="11" text-anchor="end" fill="#555">0</text>"##,
        LEFT - 4.0,
        TOP + 10.0,
        top.round(),
        LEFT - 4.0,
        TOP + plot_h
    );
    let _ = write!(
        out,
        r##"<text x="{}" y="{}" font-size="11" fill="#555">{} by ply (0 to {})</text>"##,
        LEFT,
        HEIGHT - 6.0,
        escape(measure),
        plies.saturating_sub(1)
    );
    let mut legend_x = LEFT;
    for (name, colour, values) in series {
        let points: Vec<String> =
            values.iter().enumerate().map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v))).collect();
        let _ = write!(
            out,
            r#"<polyline class="series" data-series="{}" points="{}" fill="none" stroke="{}" stroke-width="1.5"/>"#,
            escape(name),
            points.join(" "),
            escape(colour)
        );
        let _ = write!(
            out,
            r#"<rect x="{legend_x}" y="6" width="10" height="10" fill="{}"/><text x="{}" y="15" font-size="11">{}</text>"#,
            escape(colour),
            legend_x + 14.0,
            escape(name)
        );
        legend_x += 30.0 + 7.0 * name.chars().count() as f64;
    }
    let _ = write!(
        out,
        r##"<line id="cursor" data-x0="{LEFT}" data-step="{step}" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="#333" stroke-dasharray="3 2"/></svg>"##,
        TOP + plot_h
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_series_is_a_line_through_every_ply_and_names_are_escaped() {
        let svg = over_plies("people", &[("<one>".to_string(), "#2f80ed", vec![100.0, 150.0, 0.0])]);
        assert!(svg.contains("&lt;one&gt;") && !svg.contains("<one>"));
        let points = svg.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
        assert_eq!(points.split(' ').count(), 3);
        // The highest value is at the top of the plot, zero at its bottom.
        assert!(
            points.contains(&format!("{:.1}", TOP)) && points.ends_with(&format!("{:.1}", HEIGHT - BOTTOM))
        );
        assert!(svg.contains("id=\"cursor\""));
    }
}
