//! The proofs that a power domain is awake: the reference-counted guards of
//! [`Device::forcewake`] (and the release and ack polling they use) and the
//! assumed-awake proofs of [`Device::assume_awake`].

use super::Device;
use crate::brand::sealed::Proof;
use crate::brand::{Identity, Unbranded};
use crate::bus::{Bus, BusFault, Mmio};
use crate::power::{Awake, Domain, NoDomain, Wakeable, MAX_DOMAINS};
use crate::register::Project;
use core::marker::PhantomData;

/// The request write that sets `D`'s driver bit: its masked enable, or the
/// bit alone on an unmasked request register.
pub(super) const fn request_value<D: Wakeable>() -> u32 {
    let bit = 1u32 << D::BIT;
    if D::MASKED {
        bit << 16 | bit
    } else {
        bit
    }
}

/// The request write that withdraws `D`'s driver bit: its masked disable,
/// or 0 on an unmasked request register.
pub(super) const fn release_value<D: Wakeable>() -> u32 {
    if D::MASKED {
        1u32 << (D::BIT + 16)
    } else {
        0
    }
}

/// Release domain `D`: withdraw the driver's request bit (the driver does
/// not wait for the ack to clear).
pub(super) fn release_now<D: Wakeable, B: Bus<Mmio>>(bus: &mut B) {
    bus.write32(D::REQUEST, release_value::<D>());
}

/// What bounds a wait for an ack.
#[derive(Clone, Copy)]
pub(super) struct Limit {
    /// Polls, on a bus without a clock.
    pub(super) polls: u32,
    /// Nanoseconds of the bus's clock, on a bus with one.
    pub(super) ns: u64,
}

/// Why a wait for an ack ended without it.
pub(super) enum Missed {
    /// The poll limit was reached (a bus without a clock).
    Polls(u32),
    /// The wait time passed: nanoseconds waited (a bus with a clock).
    Time(u64),
    /// Reading the ack failed.
    Fault(BusFault),
}

/// Poll `D`'s ack until it reads `want`, with [`Bus::pause`] after each
/// miss: on a bus with a clock ([`Bus::now_ns`]) until `limit.ns` have
/// passed by it, on one without for `limit.polls` polls. A failed read of
/// the ack ends the wait (a faulting bus reads all ones, which would look
/// like an ack).
pub(super) fn poll_ack<D: Wakeable, B: Bus<Mmio>>(
    bus: &mut B,
    want: bool,
    limit: Limit,
) -> Result<(), Missed> {
    let bit = 1u32 << D::BIT;
    let start = bus.now_ns();
    if start.is_none() && limit.polls == 0 {
        return Err(Missed::Polls(0));
    }
    let mut polls = 0u32;
    loop {
        let ack = bus.read32(D::ACK);
        if let Some(fault) = bus.take_fault() {
            return Err(Missed::Fault(fault));
        }
        if (ack & bit != 0) == want {
            return Ok(());
        }
        bus.pause();
        polls = polls.saturating_add(1);
        match start {
            Some(t0) => {
                // A clock that stops answering ends the wait as spent.
                let waited = bus.now_ns().map_or(u64::MAX, |t| t.saturating_sub(t0));
                if waited >= limit.ns {
                    return Err(Missed::Time(waited));
                }
            }
            None if polls >= limit.polls => return Err(Missed::Polls(polls)),
            None => {}
        }
    }
}

/// A guard holding power domain `D` of one device awake; also the proof
/// [`Awake<D>`] for that device (it borrows it).
#[must_use = "the domain is released when the guard is dropped"]
pub struct ForceWake<'d, P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity = Unbranded> {
    pub(super) device: &'d Device<P, B, I>,
    pub(super) _domain: PhantomData<D>,
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> core::fmt::Debug
    for ForceWake<'_, P, B, D, I>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ForceWake")
            .field("domain", &D::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Proof for ForceWake<'_, P, B, D, I> {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.device.addr() == device
    }
}
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Awake<D, I> for ForceWake<'_, P, B, D, I> {}
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> crate::config::AwakeAny<I>
    for ForceWake<'_, P, B, D, I>
{
    fn domain_name(&self) -> &'static str {
        D::NAME
    }
}
/// Registers outside every force-wake range need no domain: any guard of the
/// device will do.
impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Awake<NoDomain, I>
    for ForceWake<'_, P, B, D, I>
{
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Clone for ForceWake<'_, P, B, D, I> {
    /// Another reference to the held domain (the count goes up).
    fn clone(&self) -> Self {
        let refs = &self.device.wake_refs[D::INDEX % MAX_DOMAINS];
        refs.set(refs.get().saturating_add(1));
        ForceWake {
            device: self.device,
            _domain: PhantomData,
        }
    }
}

impl<P: Project, B: Bus<Mmio>, D: Wakeable, I: Identity> Drop for ForceWake<'_, P, B, D, I> {
    /// Releases the domain if this is its last guard; while the bus is
    /// borrowed (an [`Io`](super::Io) is alive) the release is written when it is freed.
    fn drop(&mut self) {
        self.device.release::<D>();
    }
}

/// The proof from [`Device::assume_awake`] or [`Io::assume_awake`](super::Io::assume_awake): borrows
/// the device that made it, and is accepted by that device only.
pub struct Assumed<'d, D, I = Unbranded> {
    pub(super) device: usize,
    pub(super) _proof: PhantomData<(&'d (), D, I)>,
}

impl<D, I> Clone for Assumed<'_, D, I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<D, I> Copy for Assumed<'_, D, I> {}

impl<D: Wakeable, I> core::fmt::Debug for Assumed<'_, D, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Assumed")
            .field("domain", &D::NAME)
            .finish_non_exhaustive()
    }
}

impl<D: Wakeable, I: Identity> Proof for Assumed<'_, D, I> {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.device == device
    }
}
impl<D: Wakeable, I: Identity> Awake<D, I> for Assumed<'_, D, I> {}
impl<D: Wakeable, I: Identity> crate::config::AwakeAny<I> for Assumed<'_, D, I> {
    fn domain_name(&self) -> &'static str {
        D::NAME
    }
}
/// Registers outside every force-wake range need no domain: any proof of the
/// device will do.
impl<D: Wakeable, I: Identity> Awake<NoDomain, I> for Assumed<'_, D, I> {}

/// The proof from [`Device::assume_awake_all`]: every power domain of the
/// device that made it is awake, for as long as the holder it borrows lives
/// (the kernel's user force-wake file held open). Accepted by that device
/// only.
pub struct HeldAwake<'d, I = Unbranded> {
    pub(super) device: usize,
    pub(super) _proof: PhantomData<(&'d (), I)>,
}

impl<I> Clone for HeldAwake<'_, I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<I> Copy for HeldAwake<'_, I> {}

impl<I> core::fmt::Debug for HeldAwake<'_, I> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HeldAwake").finish_non_exhaustive()
    }
}

impl<I: Identity> Proof for HeldAwake<'_, I> {
    #[inline(always)]
    fn made_by(&self, device: usize) -> bool {
        self.device == device
    }
}
impl<D: Domain, I: Identity> Awake<D, I> for HeldAwake<'_, I> {}

/// Every domain, for configuration lists (`Device::program`) on a live GPU.
impl<I: Identity> crate::config::AwakeAny<I> for HeldAwake<'_, I> {
    fn domain_name(&self) -> &'static str {
        "*"
    }
    #[inline]
    fn covers(&self, _domain: &str) -> bool {
        true
    }
}

#[cfg(all(test, feature = "tgl"))]
mod tests {
    use crate::bus::{Bus, BusFault, FaultKind, Mmio};
    use crate::power::{WakeError, FORCEWAKE_TIMEOUT_NS};
    use crate::{tgl, BusyError, Device, Tgl};

    /// A bus whose acks never come, with a fake clock that `pause` moves by
    /// `step_ns`; it logs its writes.
    #[derive(Default)]
    struct NoAck {
        now: u64,
        step_ns: u64,
        pauses: u32,
        clock: bool,
        kernel: bool,
        fault_at: Option<u64>,
        fault: Option<BusFault>,
        writes: std::vec::Vec<(u64, u32)>,
    }

    extern crate std;
    use std::string::ToString;

    impl Bus<Mmio> for NoAck {
        fn read32(&mut self, addr: u64) -> u32 {
            if self.fault_at == Some(addr) {
                self.fault = Some(BusFault::new::<Mmio>(addr, 32, false, FaultKind::Gone));
                return u32::MAX;
            }
            0
        }
        fn write32(&mut self, addr: u64, value: u32) {
            self.writes.push((addr, value));
        }
        fn pause(&mut self) {
            self.pauses += 1;
            self.now += self.step_ns;
        }
        fn now_ns(&mut self) -> Option<u64> {
            self.clock.then_some(self.now)
        }
        fn take_fault(&mut self) -> Option<BusFault> {
            self.fault.take()
        }
        fn kernel_owned(&self) -> bool {
            self.kernel
        }
    }

    type Render = tgl::domains::Render;

    #[test]
    fn a_bus_with_a_clock_waits_fifty_ms_of_it_not_a_poll_count() {
        let gpu = Device::<Tgl, _>::new(NoAck {
            clock: true,
            step_ns: 1_000_000,
            now: 7,
            ..NoAck::default()
        });
        gpu.set_poll_limit(3); // not what bounds a bus with a clock
        let err = gpu.forcewake::<Render>().err();
        assert_eq!(
            err,
            Some(WakeError::TimedOut {
                domain: "render",
                waited_ns: FORCEWAKE_TIMEOUT_NS
            })
        );
        let bus = gpu.into_bus();
        assert_eq!(bus.pauses, 50, "one 1 ms step after each of 50 misses");
        let bit = 1u32 << <Render as crate::power::Wakeable>::BIT;
        let request = <Render as crate::power::Wakeable>::REQUEST;
        assert_eq!(
            bus.writes,
            [(request, bit << 16 | bit), (request, bit << 16)],
            "requested, then withdrawn"
        );
        assert_eq!(
            WakeError::TimedOut {
                domain: "render",
                waited_ns: 50_250_000
            }
            .to_string(),
            "force-wake render: no ack after 50.250 ms"
        );
    }

    #[test]
    fn the_wait_time_is_the_devices_and_a_bus_without_a_clock_counts_polls() {
        let gpu = Device::<Tgl, _>::new(NoAck {
            clock: true,
            step_ns: 300_000,
            ..NoAck::default()
        });
        gpu.set_wait_timeout_ns(1_000_000);
        let err = gpu.forcewake::<Render>().err();
        assert_eq!(
            err,
            Some(WakeError::TimedOut {
                domain: "render",
                waited_ns: 1_200_000
            })
        );
        assert_eq!(gpu.into_bus().pauses, 4);
        let gpu = Device::<Tgl, _>::new(NoAck::default());
        gpu.set_poll_limit(5);
        assert_eq!(
            gpu.forcewake::<Render>().err(),
            Some(WakeError::Timeout {
                domain: "render",
                polls: 5
            })
        );
        assert_eq!(gpu.into_bus().pauses, 5);
    }

    #[test]
    fn a_failing_ack_read_ends_the_wait_with_the_fault() {
        let ack = <Render as crate::power::Wakeable>::ACK;
        let gpu = Device::<Tgl, _>::new(NoAck {
            fault_at: Some(ack),
            ..NoAck::default()
        });
        assert_eq!(
            gpu.forcewake::<Render>().err(),
            Some(WakeError::Fault {
                domain: "render",
                fault: BusFault::new::<Mmio>(ack, 32, false, FaultKind::Gone)
            }),
            "all ones from a failing read is not an ack"
        );
        assert!(gpu.into_bus().writes.is_empty(), "nothing requested");
    }

    #[test]
    fn a_kernel_owned_bus_refuses_force_wake_and_steering() {
        let gpu = Device::<Tgl, _>::new(NoAck {
            kernel: true,
            ..NoAck::default()
        });
        assert_eq!(
            gpu.forcewake::<Render>().err(),
            Some(WakeError::KernelOwned { domain: "render" })
        );
        let gt = gpu.assume_awake::<tgl::domains::Gt>();
        assert_eq!(gpu.try_steering(&gt).err(), Some(BusyError::KernelOwned));
        assert!(BusyError::KernelOwned
            .to_string()
            .contains("steering belongs to the kernel"));
        // Unicast registers stay reachable.
        let _ = gpu.read(tgl::OAG_OACONTROL, &gt);
        assert!(gpu.into_bus().writes.is_empty(), "nothing written");
    }
}
