//! SVG chart of a sweep like Whaley & Castaldo fig. 1: speed against working-set size, flushed and
//! unflushed, with the cache capacities X-Ray measured drawn as vertical lines where the two
//! curves should part. Drawn with opcost's one plotting module, [`export::plot`].

use crate::run::SweepPoint;
use export::plot::prelude::*;
pub use export::plot::PlotError;
use export::plot::{chart, legend, legend_line, svg, COLORS};
use std::path::Path;

const HOT: RGBColor = COLORS[1];
const COLD: RGBColor = COLORS[0];

/// Draw `points` (x: working set in KiB; y: MFLOPS, or ns per call without a flop formula);
/// `caches` are (label, capacity in bytes).
pub fn sweep_chart(
    points: &[SweepPoint],
    caches: &[(String, u64)],
    title: &str,
    path: &Path,
) -> Result<(), PlotError> {
    let use_mflops = points
        .iter()
        .all(|p| p.hot.mflops.is_some() && p.cold.mflops.is_some());
    let y = |t: &crate::run::Timing| {
        if use_mflops {
            t.mflops.unwrap_or(0.0)
        } else {
            t.seconds * 1e9
        }
    };
    let xs: Vec<f64> = points
        .iter()
        .map(|p| p.hot.working_set_bytes as f64 / 1024.0)
        .collect();
    if xs.is_empty() {
        return Err(PlotError::new(path, "no points to draw"));
    }
    let xlo = xs.iter().cloned().fold(f64::INFINITY, f64::min).max(0.01) / 1.5;
    let xhi = xs.iter().cloned().fold(0.0, f64::max).max(xlo * 4.0) * 1.5;
    let ys: Vec<f64> = points
        .iter()
        .flat_map(|p| [y(&p.hot), y(&p.cold)])
        .collect();
    let yhi = ys.iter().cloned().fold(0.0, f64::max).max(1e-9) * 1.1;
    svg(path, (800, 520), |root| {
        let mut chart =
            chart(root, title, 18, 45, 65).build_cartesian_2d((xlo..xhi).log_scale(), 0.0..yhi)?;
        chart
            .configure_mesh()
            .x_desc("working set (KiB, all operands)")
            .y_desc(if use_mflops { "MFLOPS" } else { "ns per call" })
            .draw()?;
        for (label, bytes) in caches {
            let x = *bytes as f64 / 1024.0;
            if x < xlo || x > xhi {
                continue;
            }
            chart.draw_series(LineSeries::new(
                vec![(x, 0.0), (x, yhi)],
                BLACK.mix(0.4).stroke_width(1),
            ))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("{label} (X-Ray)"),
                (x * 1.03, yhi * 0.97),
                ("sans-serif", 12),
            )))?;
        }
        for (name, color, cold) in [("in cache (no flush)", HOT, false), ("flushed", COLD, true)] {
            let pts: Vec<(f64, f64)> = points
                .iter()
                .zip(&xs)
                .map(|(p, x)| (*x, y(if cold { &p.cold } else { &p.hot })))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?
                .label(name)
                .legend(move |p| legend_line(p, color.stroke_width(2)));
            chart.draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))?;
        }
        legend(&mut chart, None)
    })
}
