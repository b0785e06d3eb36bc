//! The horizontal axis the count and value plots share: where a value sits, on a linear or a log
//! scale, and the ticks a reader needs to read it (at least three, at round numbers).

use leptos::prelude::*;

/// The plot's drawing area in viewBox units (the SVG is 640 wide and scales to the page).
pub const WIDTH: f64 = 640.0;
/// The plot's height in viewBox units.
pub const HEIGHT: f64 = 150.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 600.0;
/// Values spread over more than this ratio are drawn on a log scale.
const LOG_RATIO: f64 = 50.0;

/// A value axis from `low` to `high`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    /// The lowest value on the axis.
    pub low: f64,
    /// The highest value on the axis.
    pub high: f64,
    /// Whether the axis is on a log scale.
    pub log: bool,
}

impl Axis {
    /// The axis over values from `low` to `high`; when they are all the same, 10% either side
    /// of it, so that the two ends do not read the same value.
    pub fn over(low: f64, high: f64) -> Axis {
        let (low, high) = if high - low > 1e-9 * high.abs().max(low.abs()) {
            (low, high)
        } else {
            let pad = if high == 0.0 { 1.0 } else { 0.1 * high.abs() };
            (low - pad, high + pad)
        };
        Axis {
            low,
            high,
            log: low > 0.0 && high / low > LOG_RATIO,
        }
    }

    /// Where `value` sits along the axis, in viewBox units (values outside sit at the ends).
    pub fn x(&self, value: f64) -> f64 {
        let v = value.clamp(self.low, self.high);
        let (a, b, v) = if self.log {
            (self.low.log10(), self.high.log10(), v.log10())
        } else {
            (self.low, self.high, v)
        };
        if (b - a).abs() < 1e-12 {
            (LEFT + RIGHT) / 2.0
        } else {
            LEFT + (v - a) / (b - a) * (RIGHT - LEFT)
        }
    }

    /// The ticks: round numbers within the axis (1, 2 or 5 times a power of ten apart, or
    /// powers of ten on a log scale), at least three — the ends are added when fewer round
    /// numbers fall inside — and at most six.
    pub fn ticks(&self) -> Vec<f64> {
        let mut ticks = if self.log {
            let first = self.low.log10().ceil() as i32;
            let last = self.high.log10().floor() as i32;
            let every = ((last - first) / 5 + 1).max(1);
            (first..=last)
                .step_by(every as usize)
                .map(|p| 10f64.powi(p))
                .collect()
        } else {
            let step = round_step((self.high - self.low) / 4.0);
            let first = (self.low / step).ceil() as i64;
            let last = (self.high / step).floor() as i64;
            (first..=last).map(|i| i as f64 * step).collect::<Vec<_>>()
        };
        if ticks.len() < 3 {
            // The ends, unless a round number sits almost on one (its label would overlap).
            let near = |a: f64, b: f64| (self.x(a) - self.x(b)).abs() < 0.12 * (RIGHT - LEFT);
            if !ticks.iter().any(|&t| near(t, self.low)) {
                ticks.insert(0, self.low);
            }
            if !ticks.iter().any(|&t| near(t, self.high)) {
                ticks.push(self.high);
            }
        }
        ticks
    }
}

/// 1, 2 or 5 times a power of ten, at least `rough`.
fn round_step(rough: f64) -> f64 {
    if !(rough.is_finite() && rough > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|step| *step >= rough * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The axis line with its ticks, labelled by `label`. The ticks are round numbers in the unit
/// the values are shown in: `shown_in()` gives that unit's `(scale, offset)` from the axis's
/// unit (`(1, 0)` when they are the same), so the ticks move with a unit switch while the
/// points, placed in the axis's unit, stay where they are. A log scale is said under the plot,
/// by [`ScaleNote`].
#[component]
pub fn AxisLine(
    /// The value axis.
    axis: Axis,
    /// The shown unit's `(scale, offset)` from the axis's unit.
    shown_in: impl Fn() -> (f64, f64) + Copy + Send + Sync + 'static,
    /// A tick's label, from its value in the shown unit.
    label: impl Fn(f64) -> String + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let ticks = move || {
        let (scale, offset) = shown_in();
        let shown = Axis {
            low: axis.low * scale + offset,
            high: axis.high * scale + offset,
            log: axis.log,
        };
        let ticks = shown.ticks();
        // On a phone the labels are larger in the plot's units: every other one of four or more
        // is left unlabelled there (the style sheet hides `plot-tick-minor`), so none overlap.
        let thinned = ticks.len() > 3;
        ticks
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let x = axis.x((t - offset) / scale);
                let class = if thinned && i % 2 == 1 {
                    "plot-label plot-tick plot-tick-minor"
                } else {
                    "plot-label plot-tick"
                };
                view! {
                    <line x1=format!("{x:.1}") x2=format!("{x:.1}") y1="124" y2="132" class="plot-axis"/>
                    <text x=format!("{x:.1}") y="148" text-anchor=label_anchor(x) class=class>{label(t)}</text>
                }
            })
            .collect_view()
    };
    view! {
        <line x1=LEFT.to_string() x2=RIGHT.to_string() y1="128" y2="128" class="plot-axis"/>
        {ticks}
    }
}

/// How a label at `x` is anchored: labels near the ends keep inside the plot.
pub fn label_anchor(x: f64) -> &'static str {
    if x < LEFT + 60.0 {
        "start"
    } else if x > RIGHT - 60.0 {
        "end"
    } else {
        "middle"
    }
}

/// Under a plot on a log scale, what that means for reading it, true to its ticks ("each tick
/// is 100 times the one before" when they step by two powers of ten).
#[component]
pub fn ScaleNote(
    /// The plot's value axis.
    axis: Axis,
) -> impl IntoView {
    axis.log.then(|| {
        view! { <p class="muted small plot-scale">{scale_note(&axis)}</p> }
    })
}

fn scale_note(axis: &Axis) -> String {
    let ticks = axis.ticks();
    let step = match ticks.as_slice() {
        [a, b, ..] if *a > 0.0 => (b / a).round(),
        _ => 10.0,
    };
    let times = if step == 10.0 {
        "ten".to_string()
    } else {
        crate::format::number(step)
    };
    format!("Log scale: each tick is {times} times the one before.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers_at_least_three_within_the_axis() {
        let axis = Axis::over(180.0, 229.0);
        let ticks = axis.ticks();
        assert!(ticks.len() >= 3 && ticks.len() <= 6, "{ticks:?}");
        assert!(
            ticks.iter().all(|t| (180.0..=229.0).contains(t)),
            "{ticks:?}"
        );
        assert!(ticks.contains(&200.0), "{ticks:?}");
        // One value: 10% either side, three labels that differ.
        assert_eq!(Axis::over(2.0, 5.0).low, 2.0);
        let one = Axis::over(2.007, 2.007);
        assert!((one.low - 1.8063).abs() < 1e-9 && (one.high - 2.2077).abs() < 1e-9);
        assert_eq!(
            (Axis::over(0.0, 0.0).low, Axis::over(0.0, 0.0).high),
            (-1.0, 1.0)
        );
        let ticks = one.ticks();
        assert!(ticks.len() >= 3, "{ticks:?}");
        assert!(ticks.windows(2).all(|w| w[0] < w[1]), "{ticks:?}");
        // Spread over orders of magnitude: a log scale with powers of ten.
        let wide = Axis::over(3.0, 1_545_532_357_715.0);
        assert!(wide.log);
        let ticks = wide.ticks();
        assert!(ticks.len() >= 3 && ticks.len() <= 6, "{ticks:?}");
        assert!(ticks.iter().all(|t| t.log10().fract() == 0.0), "{ticks:?}");
        // Positions run left to right inside the plot.
        let xs: Vec<f64> = ticks.iter().map(|&t| wide.x(t)).collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]) && xs[0] >= LEFT && xs[xs.len() - 1] <= RIGHT);
        // Two round numbers inside a narrow axis: the ends join them.
        let narrow = Axis::over(1.04, 1.26);
        assert!(narrow.ticks().len() >= 3, "{:?}", narrow.ticks());
    }

    #[test]
    fn the_log_scale_note_says_the_ticks_step() {
        assert_eq!(
            scale_note(&Axis::over(3.0, 2_000.0)),
            "Log scale: each tick is ten times the one before."
        );
        let wide = Axis::over(3.0, 1_545_532_357_715.0);
        let ticks = wide.ticks();
        let step = ticks[1] / ticks[0];
        assert!(step > 10.0, "{ticks:?}");
        assert_eq!(
            scale_note(&wide),
            format!(
                "Log scale: each tick is {} times the one before.",
                crate::format::number(step)
            )
        );
    }

    #[test]
    fn round_steps() {
        assert_eq!(round_step(12.25), 20.0);
        assert_eq!(round_step(0.3), 0.5);
        assert_eq!(round_step(1.0), 1.0);
        assert_eq!(round_step(0.0), 1.0);
    }
}
