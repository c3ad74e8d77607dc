//! The estimate's 95% intervals, from its draws in the order they finished: the work's (pairs of
//! half-boards, which no clock measures) and the time's, which is that work at the rate the
//! machine did it.
//!
//! A draw's time is its work times the rate (CPU seconds per unit of work) of the moment it ran.
//! The work varies from draw to draw by orders of magnitude and independently (the draws are
//! independent pieces); the rate drifts with the machine (another guest on the host, the clock,
//! the caches' neighbours), so draws close in time share it. An interval that treats the times
//! as independent sees the work's spread but not the drift, and on a shared machine it is too
//! narrow. So the time's interval is the wider of:
//! - the times' own, Student's t corrected for their skew (Hall), as if independent; and
//! - the work's interval (the same, on the work each draw estimates) joined with the rate's:
//!   the ratio Σ time / Σ work, whose error comes from the draws' residuals t − R·w in the
//!   order they finished, with their autocorrelation counted (Newey and West's estimator,
//!   Bartlett weights over lags up to √k), so a drift within the run widens it.
//!
//! Neither can see a change of speed that happens between runs, or another machine's speed.

use std::collections::VecDeque;

use crate::plan::sample::Drawn;

/// The most lags whose autocorrelation the rate's error counts: past this many draws apart,
/// a run's drift shows in the lags before.
const MAX_LAG: usize = 16;

/// One quantity's draws, summed as they come in: the running mean and central moments
/// (Welford's; Terriberry's update for the third), which stay accurate where a plain sum of
/// squares would cancel.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Moments {
    pub(super) count: usize,
    pub(super) mean: f64,
    squares: f64,
    /// The sum of cubed deviations from the mean: the draws' skew.
    cubes: f64,
}

impl Moments {
    pub(super) fn add(&mut self, x: f64) {
        self.count += 1;
        let k = self.count as f64;
        // The third moment's update uses the second's before.
        let before = x - self.mean;
        let (step, square) = (before / k, before * before / k * (k - 1.0));
        self.mean += step;
        self.cubes += square * step * (k - 2.0) - 3.0 * step * self.squares;
        self.squares += square;
    }

    /// Half the width of the 95% interval of the mean, where `mass_error` is the relative
    /// variance of Σw (the weights of a weighed draw, measured apart from the draws): Student's
    /// t on the draws, or the wider side of Hall's interval, which corrects it for their skew,
    /// where that is wider.
    ///
    /// A draw spans orders of magnitude even weighed: a few rare row sets cost many times the
    /// mean. A sample that happens to hold none of them has both a low mean and a low spread,
    /// so Student's t, symmetric about the mean, leaves the true value above its interval more
    /// often than 5% of the time. Hall's transformation of the t statistic (Hall 1992:
    /// g(T) = T + γT²/(3√k) + γ²T³/(27k) + γ/(6√k), γ the sample's skew) takes most of that
    /// skew out, and its interval reaches further on the side the draws lean to. One margin,
    /// the wider side, is what the reports and the shard sizing use. With γ/√k it narrows to
    /// Student's t as the draws grow, whatever law they follow.
    pub(super) fn margin(&self, mass_error: f64) -> f64 {
        let k = self.count;
        if k < 2 {
            return f64::INFINITY;
        }
        let (kf, t) = (k as f64, t95(k - 1));
        let error = (self.squares / (kf - 1.0) / kf + self.mean.powi(2) * mass_error).sqrt();
        let (second, third) = (self.squares / kf, self.cubes / kf);
        // γ/√k; 0 where two draws cannot have a skew or all were equal.
        let lean = if k > 2 && second > 0.0 {
            third / second.powf(1.5) / kf.sqrt()
        } else {
            0.0
        };
        // The inverse of Hall's g, whose quantiles are Student's t's.
        let inverse = |x: f64| match lean {
            0.0 => x,
            r => 3.0 * ((1.0 + r * (x - r / 6.0)).cbrt() - 1.0) / r,
        };
        error * t.max(-inverse(-t)).max(inverse(t))
    }

    /// [`Moments::margin`] as a share of the mean (0 where the mean is 0).
    fn relative(&self, mass_error: f64) -> f64 {
        match self.mean {
            0.0 => 0.0,
            mean => self.margin(mass_error) / mean.abs(),
        }
    }
}

/// The rate, Σ time / Σ work, over draws in the order they finished, with the sums its
/// autocorrelation-consistent error needs: for each lag l, Σ tᵢtᵢ₋ₗ, Σ (tᵢwᵢ₋ₗ + wᵢtᵢ₋ₗ) and
/// Σ wᵢwᵢ₋ₗ, from which the residuals' sums of products follow for whatever rate R they end at
/// (Σ eᵢeᵢ₋ₗ = Σ tt − R Σ (tw + wt) + R² Σ ww), one draw at a time.
#[derive(Debug, Default)]
struct Rate {
    time: f64,
    work: f64,
    /// Index l: the sums of products of draws l apart (l = 0: each with itself, its cross
    /// product counted twice).
    products: [[f64; 3]; MAX_LAG + 1],
    /// The last `MAX_LAG` draws, newest last.
    recent: VecDeque<(f64, f64)>,
}

impl Rate {
    fn add(&mut self, time: f64, work: f64) {
        self.time += time;
        self.work += work;
        self.products[0][0] += time * time;
        self.products[0][1] += 2.0 * time * work;
        self.products[0][2] += work * work;
        for (lag, &(t, w)) in self.recent.iter().rev().enumerate() {
            let sums = &mut self.products[lag + 1];
            sums[0] += time * t;
            sums[1] += time * w + work * t;
            sums[2] += work * w;
        }
        if self.recent.len() == MAX_LAG {
            self.recent.pop_front();
        }
        self.recent.push_back((time, work));
    }

    /// Half the width of the 95% interval of the rate, as a share of it, from `k` draws: Newey
    /// and West's variance of Σ eᵢ (Bartlett weights 1 − l/(L + 1), L = ⌊√k⌋), never below the
    /// independent draws' (a drift only correlates draws positively; a negative sum is a small
    /// sample's noise), with Student's t on k − 1 degrees of freedom.
    fn relative(&self, k: usize) -> f64 {
        if k < 2 || self.work <= 0.0 || self.time <= 0.0 {
            return 0.0;
        }
        let rate = self.time / self.work;
        let residual = |[tt, tw, ww]: [f64; 3]| tt - rate * tw + rate * rate * ww;
        let bandwidth = ((k as f64).sqrt() as usize).min(MAX_LAG).min(k - 1);
        let own = residual(self.products[0]).max(0.0);
        let lagged: f64 = (1..=bandwidth)
            .map(|l| (1.0 - l as f64 / (bandwidth + 1) as f64) * residual(self.products[l]))
            .sum();
        let variance = (own + 2.0 * lagged).max(own) * k as f64 / (k - 1) as f64;
        t95(k - 1) * variance.sqrt() / self.time
    }
}

/// The draws so far: the time, the work and the pairs each stands for in the whole count, and
/// the rate in the order they finished.
#[derive(Debug, Default)]
pub(super) struct Draws {
    /// CPU seconds of the whole count, as each draw scales it.
    pub(super) time: Moments,
    /// The pairs each draw estimates the count tests, and of those, the ones it ANDs.
    pub(super) pairs: Moments,
    pub(super) anded: Moments,
    /// Σ time over Σ work, where the work is the pairs ANDed if the draws count pairs, else the
    /// pieces a draw stands for (every piece one unit of work).
    rate: Rate,
    by_pairs: bool,
    /// Pieces of work timed.
    pub(super) timed: u64,
}

impl Draws {
    /// No draw yet, of a plan whose draws estimate pairs (`by_pairs`) or not.
    pub(super) fn new(by_pairs: bool) -> Draws {
        Draws {
            by_pairs,
            ..Draws::default()
        }
    }

    pub(super) fn count(&self) -> usize {
        self.time.count
    }

    /// One more draw: its time and pairs scaled to the whole count, and the pieces it timed.
    pub(super) fn add(&mut self, drawn: &Drawn) {
        let time = drawn.seconds * drawn.stands_for;
        let work = match self.by_pairs {
            true => drawn.anded * drawn.stands_for,
            false => drawn.stands_for,
        };
        self.timed += u64::from(drawn.pieces);
        self.time.add(time);
        self.pairs.add(drawn.pairs * drawn.stands_for);
        self.anded.add(drawn.anded * drawn.stands_for);
        self.rate.add(time, work);
    }

    /// Half the width of the 95% interval of the time, where `mass_error` is the relative
    /// variance of Σw: the wider of the times' own interval and the work's joined with the
    /// rate's (their shares added in quadrature, as the errors of a product's factors).
    pub(super) fn margin(&self, mass_error: f64) -> f64 {
        let k = self.count();
        if k < 2 {
            return f64::INFINITY;
        }
        // Pieces drawn uniformly are known exactly; only the weights' sum Σw has an error.
        let work = match self.by_pairs {
            true => self.anded.relative(mass_error),
            false => t95(k - 1) * mass_error.sqrt(),
        };
        let rate = self.rate.relative(k);
        let joint = self.time.mean.abs() * work.hypot(rate);
        self.time.margin(mass_error).max(joint)
    }
}

/// The 97.5% quantile of Student's t with `dof` degrees of freedom: the half-width of a 95%
/// interval in standard errors of a mean of `dof + 1` draws. A table to 30, then 1.96 + 2.5 /
/// dof (within 0.002 of the true values from 30 up).
fn t95(dof: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        1..=30 => TABLE[dof - 1],
        _ => 1.96 + 2.5 / dof as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::SplitMix64;

    fn drawn(seconds: f64, anded: f64) -> Drawn {
        Drawn {
            stands_for: 1.0,
            pieces: 1,
            seconds,
            pairs: 2.0 * anded,
            anded,
        }
    }

    /// A standard normal deviate (Box and Muller).
    fn normal(rng: &mut SplitMix64) -> f64 {
        let (u, v) = (1.0 - rng.uniform(), rng.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn few_draws_widen_the_interval_by_students_t() {
        assert_eq!(t95(2), 4.303);
        assert!((t95(30) - 2.042).abs() < 0.002 && (t95(31) - 2.040).abs() < 0.002);
        assert!((t95(60) - 2.000).abs() < 0.002 && (t95(120) - 1.980).abs() < 0.002);
        assert!((t95(1_000_000) - 1.96).abs() < 0.001);
        assert!(
            (1..200).all(|d| t95(d + 1) < t95(d)),
            "falls as the draws grow"
        );
    }

    /// Of samples of 10 draws from a log-normal law (skewed as the join's row sets are), the
    /// interval holds the true mean clearly more often than Student's t alone, which falls far
    /// short of 95% there.
    #[test]
    fn skewed_draws_widen_the_interval() {
        let (sigma, k, samples) = (1.0f64, 10, 4000);
        let truth = (sigma * sigma / 2.0).exp();
        let (share, by_t) = coverage(11, samples, truth, |rng| {
            let mut draws = Draws::new(false);
            for _ in 0..k {
                draws.add(&drawn((sigma * normal(rng)).exp(), 0.0));
            }
            draws
        });
        assert!(
            share > 0.89 && by_t < 0.86,
            "held {share}, by Student's t alone {by_t}"
        );
    }

    /// Draws whose work is alike but whose rate drifts in time (each draw's rate an AR(1)
    /// process about 1, ρ = 0.4): the interval, which counts the residuals' autocorrelation,
    /// holds the true mean about 95% of the time; Student's t, which takes the draws as
    /// independent, about 80%.
    #[test]
    fn a_rate_that_drifts_in_time_widens_the_interval() {
        let (rho, k, samples) = (0.4f64, 100, 2000);
        let (share, by_t) = coverage(5, samples, 1.0, |rng| {
            let mut draws = Draws::new(true);
            let mut drift = normal(rng) * 0.1;
            for _ in 0..k {
                drift = rho * drift + (1.0 - rho * rho).sqrt() * 0.1 * normal(rng);
                // Work 1e9 ± 1%: the time's spread is the rate's.
                let work = 1e9 * (1.0 + 0.01 * normal(rng));
                draws.add(&drawn(work * 1e-9 * (1.0 + drift), work));
            }
            draws
        });
        assert!(
            share > 0.9 && by_t < 0.85,
            "held {share}, by Student's t alone {by_t}"
        );
    }

    /// Where the rate holds and the work alone varies, the joint interval is the work's, which
    /// is the time's own: nothing is added for a drift that is not there.
    #[test]
    fn a_steady_rate_adds_nothing() {
        let mut rng = SplitMix64(3);
        let mut draws = Draws::new(true);
        for _ in 0..50 {
            let work = (2.0 * normal(&mut rng)).exp();
            draws.add(&drawn(3.0 * work, work));
        }
        assert!(draws.rate.relative(50) < 1e-6);
        let own = draws.time.margin(0.0);
        assert!((draws.margin(0.0) - own).abs() <= 1e-9 * own);
        assert!((draws.anded.relative(0.0) - own / draws.time.mean).abs() < 1e-9);
    }

    /// Of `samples` runs of draws made by `run` from the random stream `seed`, the shares whose
    /// interval holds `truth`, and whose Student's t interval alone does.
    fn coverage(
        seed: u64,
        samples: usize,
        truth: f64,
        mut run: impl FnMut(&mut SplitMix64) -> Draws,
    ) -> (f64, f64) {
        let mut rng = SplitMix64(seed);
        let (mut held, mut held_by_t) = (0, 0);
        for _ in 0..samples {
            let draws = run(&mut rng);
            let error = (draws.time.mean - truth).abs();
            held += usize::from(error <= draws.margin(0.0));
            held_by_t += usize::from(error <= student(&draws.time));
        }
        let share = |held: usize| held as f64 / samples as f64;
        (share(held), share(held_by_t))
    }

    /// Student's t's half-width alone.
    fn student(m: &Moments) -> f64 {
        let k = m.count as f64;
        t95(m.count - 1) * (m.squares / (k * (k - 1.0))).sqrt()
    }

    /// The interval narrows to Student's t as the draws grow, whatever law they follow (here
    /// two values far apart, in turn); draws all alike have none.
    #[test]
    fn the_interval_narrows_as_the_draws_grow() {
        let mut draws = Draws::new(false);
        for i in 0..100_000 {
            draws.add(&drawn(if i % 3 == 0 { 1e-6 } else { 1.0 }, 0.0));
        }
        let (margin, student) = (draws.margin(0.0), student(&draws.time));
        assert!(
            margin > student && margin < 1.01 * student,
            "{margin} against {student}"
        );
        let mut same = Draws::new(true);
        for _ in 0..5 {
            same.add(&drawn(2.0, 7.0));
        }
        assert_eq!(same.margin(0.0), 0.0);
    }

    #[test]
    fn draws_keep_the_moments_of_the_times_and_of_the_pairs() {
        let times = [3.0, 5.0, 4.0, 11.0, 7.0];
        let mut draws = Draws::new(true);
        for (i, &t) in times.iter().enumerate() {
            draws.add(&Drawn {
                stands_for: 2.0,
                pieces: i as u32,
                seconds: t / 2.0,
                pairs: 10.0 * t,
                anded: t,
            });
        }
        let mean = times.iter().sum::<f64>() / 5.0;
        let squares: f64 = times.iter().map(|t| (t - mean).powi(2)).sum();
        let cubes: f64 = times.iter().map(|t| (t - mean).powi(3)).sum();
        assert_eq!((draws.count(), draws.timed), (5, 10));
        let time = draws.time;
        assert!((time.mean - mean).abs() < 1e-12 && (time.squares - squares).abs() < 1e-12);
        assert!(
            (time.cubes - cubes).abs() < 1e-9,
            "{} against {cubes}",
            time.cubes
        );
        assert!((draws.pairs.mean - 20.0 * mean).abs() < 1e-9);
        assert!((draws.anded.mean - 2.0 * mean).abs() < 1e-9);
        // Half a second per pair ANDed throughout.
        assert!((draws.rate.time / draws.rate.work - 0.5).abs() < 1e-12);
    }

    /// The lagged sums kept one draw at a time are those of the residuals computed afresh.
    #[test]
    fn the_rates_running_sums_are_the_residuals_products() {
        let mut rng = SplitMix64(9);
        let pairs: Vec<(f64, f64)> = (0..40)
            .map(|_| (1.0 + rng.uniform(), 1.0 + rng.uniform()))
            .collect();
        let mut rate = Rate::default();
        pairs.iter().for_each(|&(t, w)| rate.add(t, w));
        let r = rate.time / rate.work;
        let e: Vec<f64> = pairs.iter().map(|&(t, w)| t - r * w).collect();
        for lag in 0..=MAX_LAG {
            let direct: f64 = (lag..e.len()).map(|i| e[i] * e[i - lag]).sum();
            let [tt, tw, ww] = rate.products[lag];
            let kept = tt - r * tw + r * r * ww;
            assert!(
                (kept - direct).abs() < 1e-9,
                "lag {lag}: {kept} against {direct}"
            );
        }
    }
}
