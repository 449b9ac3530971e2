//! SVG charts: predicted against real run times on log-log axes with the diagonal (Saavedra-Barrera
//! figure 6.5), and parameters normalized to a reference system by region (Saavedra-Barrera figures
//! 4.10-4.11). Drawn with opcost's one plotting module, [`export::plot`].

use export::plot::prelude::*;
pub use export::plot::PlotError;
use export::plot::{chart, legend, legend_line, svg, COLORS};
use std::path::Path;

/// Predicted vs real seconds, one labelled point per program, with the diagonal and the
/// ±10 % band.
pub fn predicted_vs_real(
    points: &[(String, f64, f64)],
    title: &str,
    path: &Path,
) -> Result<(), PlotError> {
    let finite: Vec<f64> = points
        .iter()
        .flat_map(|(_, p, r)| [*p, *r])
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = finite
        .iter()
        .cloned()
        .fold(f64::INFINITY, f64::min)
        .min(1.0)
        / 1.5;
    let hi = finite.iter().cloned().fold(0.0, f64::max).max(lo * 10.0) * 1.5;
    svg(path, (640, 600), |root| {
        let mut chart = chart(root, title, 18, 45, 60)
            .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("real run time (s, CPU)")
            .y_desc("predicted run time (s)")
            .draw()?;
        let diag: Vec<(f64, f64)> = (0..=50)
            .map(|i| lo * (hi / lo).powf(i as f64 / 50.0))
            .map(|x| (x, x))
            .collect();
        chart
            .draw_series(LineSeries::new(diag.clone(), BLACK.stroke_width(1)))?
            .label("predicted = real")
            .legend(|p| legend_line(p, BLACK));
        for (f, label) in [(1.1, "±10 %"), (0.9, "")] {
            let s = chart.draw_series(LineSeries::new(
                diag.iter().map(|(x, y)| (*x, y * f)),
                BLACK.mix(0.3).stroke_width(1),
            ))?;
            if !label.is_empty() {
                s.label(label).legend(|p| legend_line(p, BLACK.mix(0.3)));
            }
        }
        chart.draw_series(points.iter().filter(|(_, p, r)| *p > 0.0 && *r > 0.0).map(
            |(name, p, r)| {
                EmptyElement::at((*r, *p))
                    + Circle::new((0, 0), 4, COLORS[0].filled())
                    + Text::new(name.clone(), (6, -12), ("sans-serif", 12))
            },
        ))?;
        legend(&mut chart, Some(SeriesLabelPosition::UpperLeft))
    })
}

/// Parameters of several systems normalized to a reference (ratio, log scale), one line per
/// system, parameters along the x axis.
pub fn normalized_chart(
    title: &str,
    params: &[String],
    systems: &[(String, Vec<Option<f64>>)],
    path: &Path,
) -> Result<(), PlotError> {
    let vals: Vec<f64> = systems
        .iter()
        .flat_map(|(_, v)| v.iter().flatten().cloned())
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let lo = vals.iter().cloned().fold(1.0, f64::min) / 1.5;
    let hi = vals.iter().cloned().fold(1.0, f64::max) * 1.5;
    let width = 200 + 45 * params.len() as u32;
    svg(path, (width.max(500), 420), |root| {
        let n = params.len().max(1);
        let mut chart = chart(root, title, 16, 40, 60)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo..hi).log_scale())?;
        let labels = params.to_vec();
        chart
            .configure_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round() as i64;
                if (x - i as f64).abs() < 1e-6 && i >= 0 && (i as usize) < labels.len() {
                    labels[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .y_desc("time relative to the reference")
            .draw()?;
        for (k, (name, v)) in systems.iter().enumerate() {
            let c = COLORS[k % COLORS.len()];
            let pts: Vec<(f64, f64)> = v
                .iter()
                .enumerate()
                .filter_map(|(i, r)| r.filter(|r| *r > 0.0).map(|r| (i as f64, r)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
                .label(name.clone())
                .legend(move |p| legend_line(p, c.stroke_width(2)));
            chart.draw_series(pts.iter().map(|p| Circle::new(*p, 3, c.filled())))?;
        }
        legend(&mut chart, None)
    })
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_svg() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("v.svg");
        predicted_vs_real(&[("a".into(), 1.2, 1.0), ("b".into(), 5.0, 6.0)], "t", &p).unwrap();
        let s = std::fs::read_to_string(&p).unwrap();
        assert!(s.contains("<svg"), "{s}");
        assert!(s.contains(">\na\n</text>"), "program label drawn");
        let q = d.path().join("n.svg");
        normalized_chart(
            "r",
            &["ARSL".into(), "MRSL".into()],
            &[
                ("x".into(), vec![Some(1.0), Some(1.0)]),
                ("y".into(), vec![Some(0.5), None]),
            ],
            &q,
        )
        .unwrap();
        assert!(std::fs::read_to_string(&q).unwrap().contains("ARSL"));
    }
}
