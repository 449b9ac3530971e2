//! SVG charts, the one plotting module of opcost (the predictor's and the timing's charts):
//! one error type, one palette, and the set-up every chart shares. A chart is drawn in
//! memory on a white page, then written atomically like every result file.

use plotters::coord::Shift;
pub use plotters::prelude;
use prelude::*;
use std::path::Path;

/// A chart that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw {path}: {detail}")]
pub struct PlotError {
    pub path: String,
    pub detail: String,
}

impl PlotError {
    pub fn new(path: &Path, detail: impl Into<String>) -> Self {
        PlotError {
            path: path.display().to_string(),
            detail: detail.into(),
        }
    }
}

/// What a drawing step can fail with (any plotters error).
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The page a chart is drawn on.
pub type Page<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The colours of successive series (matplotlib's first six).
pub const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(23, 190, 207),
];

/// Draw an SVG of `size` (width, height) pixels with `draw` on a white page, and write it
/// to `path` atomically.
pub fn svg(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&Page<'_>) -> DrawResult,
) -> Result<(), PlotError> {
    let e = |x: &dyn std::fmt::Display| PlotError::new(path, x.to_string());
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|x| e(&x))?;
        draw(&root).map_err(|x| e(&x))?;
        root.present().map_err(|x| e(&x))?;
    }
    crate::write_atomic(path, text.as_bytes()).map_err(|x| e(&x))
}

/// A chart on `page`: a caption of `caption_size` points, the common margin, and label areas
/// of these sizes (x below, y on the left). The caller builds its coordinates.
pub fn chart<'a, 'b>(
    page: &'a Page<'b>,
    title: &str,
    caption_size: u32,
    x_label_area: u32,
    y_label_area: u32,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(page);
    b.caption(title, ("sans-serif", caption_size))
        .margin(15)
        .x_label_area_size(x_label_area)
        .y_label_area_size(y_label_area);
    b
}

/// The legend of a chart's labelled series: white, framed, at `position` (None: plotters'
/// default, the upper right).
pub fn legend<'a, 'b: 'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, Y>>,
    position: Option<SeriesLabelPosition>,
) -> DrawResult
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let mut l = chart.configure_series_labels();
    l.background_style(WHITE.mix(0.8)).border_style(BLACK);
    if let Some(p) = position {
        l.position(p);
    }
    l.draw()?;
    Ok(())
}

/// A short horizontal line for a legend entry.
pub fn legend_line<S: Into<ShapeStyle>>((x, y): (i32, i32), style: S) -> PathElement<(i32, i32)> {
    PathElement::new(vec![(x, y), (x + 20, y)], style)
}
