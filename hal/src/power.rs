//! Force-wake: power domains as types, proofs that a domain is awake, and
//! reference-counted guards that wake a domain with the driver protocol.

use crate::brand::sealed::Proof;
use crate::brand::{Identity, Unbranded};
use crate::register::Project;
use core::marker::PhantomData;

/// A power domain of a project (`tgl::domains::Render`), or [`NoDomain`].
pub trait Domain: Copy + Default + core::fmt::Debug + 'static {
    /// Lower-case name (`render`).
    const NAME: &'static str;
}

/// Domains that never need waking (AON, and registers outside any domain).
#[diagnostic::on_unimplemented(
    message = "power domain `{Self}` is not always on: `AlwaysAwake` does not prove it awake",
    label = "this register needs its power domain held awake",
    note = "hold a force-wake guard for the domain (`gpu.forcewake::<{Self}>()?`) and pass `&guard`"
)]
pub trait AlwaysOn: Domain {}

/// Domains woken through a (masked) request register and confirmed by an ack register.
pub trait Wakeable: Domain {
    /// The project the domain belongs to.
    type Project: Project;
    /// Index of the domain among its project's wakeable domains (for reference counts).
    const INDEX: usize;
    /// MMIO address of the request register.
    const REQUEST: u64;
    /// MMIO address of the acknowledge register.
    const ACK: u64;
    /// The requester bit this driver uses (the kernel-driver bit, 0).
    const BIT: u32;
    /// Whether the request register is masked (bits 31:16 enable bits
    /// 15:0). An unmasked one (SNB's FORCEWAKE) is written with the bit to
    /// request and with 0 to release, as Linux i915 does on Gen6.
    const MASKED: bool;
}

/// The domain of registers that no force-wake table covers (and of request
/// registers, which are written to wake a domain): always accessible, so
/// `&AlwaysAwake`, any force-wake guard and any assumed proof are accepted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoDomain;
impl Domain for NoDomain {
    const NAME: &'static str = "none";
}
#[diagnostic::do_not_recommend]
impl AlwaysOn for NoDomain {}

/// Two power domains woken together: the domain of registers whose
/// force-wake row wakes both (Linux i915's `FORCEWAKE_RENDER |
/// FORCEWAKE_MEDIA` rows on CHV and Gen9). Each project names its pairs
/// (`chv::domains::RenderMedia = Both<Render, Media>`, with the
/// [`Domain`] name `render+media`). The proof is a pair of proofs of the
/// same device, one for each domain: `&(&render, &media)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Both<A, B>(PhantomData<(A, B)>);

/// Proof that power domain `D` of a device with identity `I` is awake: a
/// [`ForceWake`](crate::ForceWake) guard or an [`Assumed`](crate::Assumed)
/// proof made by that device, or [`AlwaysAwake`] when `D` never sleeps.
///
/// Sealed: only this crate's proofs implement it. A guard or assumed proof
/// borrows the device that made it and is accepted by that device alone: at
/// compile time between [branded](crate::brand!) devices, by a run-time check
/// (a panic naming the mistake) between [`Unbranded`] ones.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not prove that power domain `{D}` of this device is awake",
    label = "this register lies in power domain `{D}`",
    note = "hold a force-wake guard for that domain made by this device (`gpu.forcewake::<{D}>()?`) and pass `&guard` (for a pair `Both<A, B>`, a guard of each: `&(&a, &b)`); `&AlwaysAwake` only proves always-on domains"
)]
pub trait Awake<D: Domain, I: Identity = Unbranded>: Proof {}

/// A pair of proofs made by one device (the proof of a [`Both`] domain).
impl<X: Proof, Y: Proof> Proof for (&X, &Y) {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.0.made_by(device) && self.1.made_by(device)
    }
}

/// Both domains of a pair are awake when each has its proof.
impl<A, B, X, Y, I> Awake<Both<A, B>, I> for (&X, &Y)
where
    A: Wakeable,
    B: Wakeable,
    Both<A, B>: Domain,
    X: Awake<A, I>,
    Y: Awake<B, I>,
    I: Identity,
{
}

/// The proof for always-on domains (AON, and registers outside every domain),
/// accepted by every device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AlwaysAwake;
impl<D: AlwaysOn, I: Identity> Awake<D, I> for AlwaysAwake {}
impl Proof for AlwaysAwake {
    #[inline(always)]
    fn made_by(&self, _device: usize) -> bool {
        true
    }
}

/// Something whose existence means that every power domain of a device is
/// held awake by someone else: the kernel's user force-wake file held open
/// (`perfregs_linux::forcewake::ForcewakeHolder`). It is what
/// [`Device::assume_awake_all`](crate::Device::assume_awake_all) takes, and
/// the proof it gives borrows it, so no proof outlives the holding.
///
/// # Safety
///
/// Implement it only for a type whose values exist only while every power
/// domain of the device they are used with is held awake (an accessor given
/// a proof under a wrong assumption reads 0 or an unrelated value on real
/// hardware, and its writes are dropped).
pub unsafe trait HoldsAwake {}

/// Why a domain could not be woken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WakeError {
    /// A stale acknowledgement did not clear before the request.
    StaleAck {
        /// The domain.
        domain: &'static str,
    },
    /// The acknowledgement did not arrive within the poll limit (a bus
    /// without a clock, see [`Bus::now_ns`](crate::Bus::now_ns)).
    Timeout {
        /// The domain.
        domain: &'static str,
        /// Polls made.
        polls: u32,
    },
    /// The acknowledgement did not arrive within the wait time (a bus with
    /// a clock: [`FORCEWAKE_TIMEOUT_NS`] unless the device was told otherwise).
    TimedOut {
        /// The domain.
        domain: &'static str,
        /// Nanoseconds waited, by the bus's clock (at least the wait time).
        waited_ns: u64,
    },
    /// Reading the ack register (or writing the request) failed on the bus.
    Fault {
        /// The domain.
        domain: &'static str,
        /// The failed access.
        fault: crate::bus::BusFault,
    },
    /// The bus belongs to a kernel driver that owns the force-wake request
    /// registers (a live GPU): hold its user force-wake file instead (see
    /// [`Bus::kernel_owned`](crate::Bus::kernel_owned)).
    KernelOwned {
        /// The domain.
        domain: &'static str,
    },
}

/// How long a force-wake ack is awaited on a bus with a clock: 50 ms, the
/// Linux i915 driver's force-wake ack timeout.
pub const FORCEWAKE_TIMEOUT_NS: u64 = 50_000_000;

impl core::fmt::Display for WakeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WakeError::StaleAck { domain } => {
                write!(f, "force-wake {domain}: a stale ack did not clear")
            }
            WakeError::Timeout { domain, polls } => {
                write!(f, "force-wake {domain}: no ack after {polls} polls")
            }
            WakeError::TimedOut { domain, waited_ns } => {
                let (ms, rest) = (waited_ns / 1_000_000, waited_ns % 1_000_000 / 1000);
                write!(f, "force-wake {domain}: no ack after {ms}.{rest:03} ms")
            }
            WakeError::Fault { domain, fault } => write!(f, "force-wake {domain}: {fault}"),
            WakeError::KernelOwned { domain } => write!(
                f,
                "force-wake {domain}: the kernel driver owns force-wake on this bus; \
                 hold its user force-wake file open instead"
            ),
        }
    }
}

impl core::error::Error for WakeError {}

/// Most wakeable domains a project may have (reference counts are kept per domain).
pub const MAX_DOMAINS: usize = 32;
