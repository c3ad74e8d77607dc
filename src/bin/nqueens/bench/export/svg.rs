//! The SVG export: speedup against threads, with the ideal linear speedup for comparison, drawn by
//! plotters' SVG backend.

use plotters::prelude::*;

use super::{failed, Exporter, Format};
use crate::bench::{Bench, Error};

/// A chart of the measured speedup and the ideal (speedup = threads) against threads.
pub struct Svg;

/// The legend of the measured series.
pub const MEASURED: &str = "measured speedup";
/// The legend of the ideal series.
pub const IDEAL: &str = "ideal (linear)";

impl Exporter for Svg {
    fn serialize(&self, bench: &Bench) -> Result<Vec<u8>, Error> {
        let mut svg = String::new();
        draw(bench, &mut svg).map_err(|e| failed(Format::Svg, e))?;
        Ok(svg.into_bytes())
    }
}

fn draw(bench: &Bench, svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let measured: Vec<(u32, f64)> = bench
        .results
        .iter()
        .map(|r| (r.threads as u32, r.speedup))
        .collect();
    let most = measured.iter().map(|p| p.0).max().unwrap_or(1).max(1);
    let top = measured.iter().map(|p| p.1).fold(f64::from(most), f64::max);
    let root = SVGBackend::with_string(svg, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "nqueens bench: n = {}, {} ({} logical cores)",
                bench.n, bench.machine.cpu, bench.machine.logical_cores
            ),
            ("sans-serif", 26),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(65)
        .build_cartesian_2d(0..most + 1, 0.0..top * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speedup over 1 thread")
        .axis_desc_style(("sans-serif", 20))
        .label_style(("sans-serif", 16))
        .draw()?;
    let grey = RGBColor(140, 140, 140);
    chart
        .draw_series(DashedLineSeries::new(
            [(1, 1.0), (most, f64::from(most))],
            8,
            6,
            grey.stroke_width(2),
        ))?
        .label(IDEAL)
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], grey.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(measured.clone(), BLUE.stroke_width(2)))?
        .label(MEASURED)
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    chart.draw_series(measured.iter().map(|&p| Circle::new(p, 4, BLUE.filled())))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 18))
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()?;
    root.present()?;
    Ok(())
}
