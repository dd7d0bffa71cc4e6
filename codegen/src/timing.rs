//! Phase times on stderr, for measuring where a compile spends its time
//! (the `regdefs!` proc-macro runs unoptimised in a user's crate, where no
//! profiler reaches it): set `PERFREGS_MACRO_TIMES=1` and each phase prints
//! `perfregs: <phase> <ms> ms`.

use std::time::Instant;

/// The environment variable that turns the phase times on.
pub const ENV: &str = "PERFREGS_MACRO_TIMES";

/// A stopwatch over consecutive phases; silent unless [`ENV`] is set.
#[derive(Debug)]
pub struct Phases {
    last: Option<Instant>,
}

impl Phases {
    /// Start timing (a no-op stopwatch when [`ENV`] is unset or empty).
    pub fn start() -> Phases {
        let on = std::env::var_os(ENV).is_some_and(|v| !v.is_empty() && v != "0");
        Phases {
            last: on.then(Instant::now),
        }
    }

    /// End the phase `name` (the time since the last mark) and start the next.
    pub fn mark(&mut self, name: &str) {
        if let Some(last) = self.last {
            let now = Instant::now();
            eprintln!(
                "perfregs: {name} {:.1} ms",
                now.duration_since(last).as_secs_f64() * 1e3
            );
            self.last = Some(now);
        }
    }
}
