//! Register configurations: lists of `(address, value)` writes, such as a
//! metric set's programming (crate `perfregs-metrics`), written through a
//! device with every write checked against the project's descriptions.
//!
//! [`Device::program`](crate::Device::program) checks the whole list before
//! it writes anything: each address must be a described register of the
//! project (or lie in a described opaque range), its power domain must be
//! proven awake by one of the given proofs, and its value may set no bit
//! that no field covers, no reserved or must-be-zero bit and no read-only
//! bit; a masked register's write must carry the enable bits of the bits it
//! sets. A failed check is an error naming the write, and nothing is written.
//!
//! Writes to replicated (multicast) registers are plain MMIO writes: they
//! reach every instance while the steering selector is in multicast mode,
//! its reset state, which [`Steering`](crate::Steering) restores when it is
//! dropped. Gen8..Gen10 selectors have no multicast mode: there a plain
//! write is the one Linux i915 makes for its multicast write (no public
//! source says more; the emulator sends it to every instance).

use crate::brand::sealed::Proof;
use crate::brand::Identity;
use crate::meta::{AccessKind, ProjectInfo, RegisterInfo, SpaceKind};

/// A proof that some power domain is awake, queried at run time (for
/// configuration lists, whose registers are known only as addresses).
/// Implemented by force-wake guards and assumed proofs.
pub trait AwakeAny<I: Identity>: Proof {
    /// Name of the domain proven awake (`render`; `*` for a proof of every
    /// domain).
    fn domain_name(&self) -> &'static str;
    /// Whether the proof covers `domain` (default: it is the domain named).
    #[inline]
    fn covers(&self, domain: &str) -> bool {
        self.domain_name() == domain
    }
}

/// Why a configuration was refused (nothing was written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramError {
    /// The project type carries no register metadata (a hand-made project).
    NoMetadata,
    /// No described register or opaque range at the address.
    Undescribed {
        /// Index of the write in the list.
        index: usize,
        /// Its address.
        address: u64,
    },
    /// The register's power domain (one of the two, for a register whose
    /// row wakes two) is not among the proofs given.
    NotAwake {
        /// Index of the write in the list.
        index: usize,
        /// Register or range name.
        register: &'static str,
        /// The domain no proof holds awake.
        domain: &'static str,
    },
    /// The value sets bits the description does not allow (outside every
    /// field, reserved, must-be-zero or read-only), or does not fit 32 bits.
    BadBits {
        /// Index of the write in the list.
        index: usize,
        /// Register name.
        register: &'static str,
        /// The value.
        value: u64,
        /// The offending bits.
        bits: u64,
    },
    /// A masked register's value sets bits without their enable bits.
    MissingEnables {
        /// Index of the write in the list.
        index: usize,
        /// Register name.
        register: &'static str,
        /// The value.
        value: u64,
    },
}

impl core::fmt::Display for ProgramError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ProgramError::NoMetadata => f.write_str("the project has no register metadata"),
            ProgramError::Undescribed { index, address } => write!(
                f,
                "write {index}: no described register or opaque range at {address:#x}"
            ),
            ProgramError::NotAwake {
                index,
                register,
                domain,
            } => write!(
                f,
                "write {index}: {register} lies in power domain `{domain}`, which no given proof holds awake"
            ),
            ProgramError::BadBits {
                index,
                register,
                value,
                bits,
            } => write!(
                f,
                "write {index}: {register} = {value:#x} sets bits {bits:#x} that are outside every field, reserved or read-only"
            ),
            ProgramError::MissingEnables {
                index,
                register,
                value,
            } => write!(
                f,
                "write {index}: masked register {register} = {value:#x} sets bits without their enable bits"
            ),
        }
    }
}

impl core::error::Error for ProgramError {}

/// Bits of `r` a 32-bit write at its address may set (for a masked
/// register: its data bits 15:0).
fn settable(r: &RegisterInfo) -> u64 {
    r.fields
        .iter()
        .filter(|f| {
            !matches!(
                f.access,
                AccessKind::Ro | AccessKind::RoV | AccessKind::Mbz | AccessKind::Rsvd
            )
        })
        .fold(0, |m, f| m | f.mask())
}

/// Check one write; `Ok(domain)` is the domain it needs.
pub(crate) fn check_write(
    info: &ProjectInfo,
    index: usize,
    address: u64,
    value: u64,
) -> Result<(Option<&'static str>, &'static str), ProgramError> {
    if let Some(r) = info.at(SpaceKind::Mmio, address) {
        let (data, enables) = if r.masked {
            (value & 0xFFFF, value >> 16)
        } else {
            (value, 0)
        };
        let bits = data & !settable(r) | (value >> 32 << 32);
        if bits != 0 {
            return Err(ProgramError::BadBits {
                index,
                register: r.name,
                value,
                bits,
            });
        }
        if r.masked && (data & !enables != 0 || enables == 0) {
            return Err(ProgramError::MissingEnables {
                index,
                register: r.name,
                value,
            });
        }
        return Ok((r.domain, r.name));
    }
    match info.opaque_at(address) {
        Some(o) if address % 4 == 0 && address.saturating_add(3) <= o.end => {
            if value >> 32 != 0 {
                return Err(ProgramError::BadBits {
                    index,
                    register: o.name,
                    value,
                    bits: value >> 32 << 32,
                });
            }
            Ok((o.domain, o.name))
        }
        _ => Err(ProgramError::Undescribed { index, address }),
    }
}

/// The first domain of `domain` (a register's wake target, `None` outside
/// every force-wake range; two domains joined by `+` where its row wakes
/// both, [`domain_names`](crate::meta::domain_names)) that is neither
/// always on nor awake by `proofs`; `None` when every one is.
pub(crate) fn uncovered<I: Identity>(
    info: &ProjectInfo,
    domain: Option<&'static str>,
    proofs: &[&dyn AwakeAny<I>],
) -> Option<&'static str> {
    crate::meta::domain_names(domain?).find(|&d| {
        !(info.domain(d).is_some_and(|x| x.always_on) || proofs.iter().any(|p| p.covers(d)))
    })
}
