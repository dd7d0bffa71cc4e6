//! The live stream a command reads (`top`, `produce`): a real GPU's
//! (`--device`) or the emulated one's (`--emulate` and the flags only it
//! takes), with the metric set.

use super::record::DeviceRoots;
use super::Fail;

/// `--device` or `--emulate` (one of them), the emulated GPU's part, driver
/// and workload, and `--metric-set`.
#[derive(Clone, Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("target").required(true).args(["device", "emulate"])))]
pub struct StreamTarget {
    /// A real GPU: the DRM card (`card0`, or `0`), as `perfregs devices` lists it.
    #[arg(long, value_name = "CARD", conflicts_with = "emulate")]
    pub device: Option<String>,
    /// The emulated GPU of a project.
    #[arg(long, value_name = "PROJECT", value_parser = clap::builder::PossibleValuesParser::new(perfregs_session::oa_projects()), ignore_case = true)]
    pub emulate: Option<String>,
    /// The part (--gt N, --gt1, --gt2; default GT2 on a project with several parts).
    #[command(flatten)]
    pub part: super::metrics::Part,
    /// The driver the emulated kernel answers as (default: the project's first).
    #[arg(long, value_name = "DRIVER", value_parser = ["i915", "xe"], ignore_case = true)]
    pub driver: Option<String>,
    /// What the emulated GPU does: a built-in workload (busy, light),
    /// `none` (the A counters stay 0), or a YAML file of one's own
    /// (regdefs/workloads/*.yaml show the shape); default busy.
    #[arg(long, value_name = "NAME|FILE")]
    pub workload: Option<String>,
    /// The metric set (symbol or underscore name, case-insensitive).
    #[arg(long, value_name = "SET")]
    pub metric_set: String,
}

impl StreamTarget {
    /// The first flag given that only `--emulate` takes.
    pub fn emulate_only(&self) -> Option<&'static str> {
        [
            ("--driver", self.driver.is_some()),
            ("--workload", self.workload.is_some()),
            ("--gt1", self.part.gt1),
            ("--gt2", self.part.gt2),
            ("--gt", self.part.gt.is_some()),
        ]
        .into_iter()
        .find_map(|(flag, given)| given.then_some(flag))
    }

    /// A usage error for a flag of the other target: an `--emulate` flag
    /// with `--device`, or a `--device` root (`roots`) with `--emulate`.
    pub fn check(&self, roots: &DeviceRoots) -> Result<(), Fail> {
        if let (Some(_), Some(flag)) = (&self.device, self.emulate_only()) {
            return Err(Fail::usage(format!(
                "{flag} is for --emulate; with --device the card's own driver and part are used"
            )));
        }
        if let (None, Some(flag)) = (&self.device, roots.given()) {
            return Err(Fail::usage(format!("{flag} is for --device")));
        }
        Ok(())
    }
}
