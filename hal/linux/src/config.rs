//! OA configurations: a uuid and register lists, uploaded with i915's
//! ADD_CONFIG (mux, boolean and flex lists) or Xe's ADD_CONFIG (one list:
//! mux, boolean, flex concatenated), removed with REMOVE_CONFIG. A config
//! the kernel already has (registered by a tool, or built in) is found as
//! `<card>/metrics/<uuid>/id` in sysfs and reused ([`find_id`]).
//!
//! Everything the kernel would be handed is built by pure functions
//! ([`OaConfig::i915_struct`], [`OaConfig::xe_regs`], the `*_bytes`
//! functions), tested without hardware.

use core::fmt;
use std::path::{Path, PathBuf};

use crate::uapi::i915::DrmI915PerfOaConfig;
use crate::uapi::xe::DrmXeOaConfig;
use crate::uapi::{RegPair, UUID_LEN};

/// Which list of an i915 config a register goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// NOA blocks (the mux).
    Mux,
    /// OA blocks (the boolean counters).
    Boolean,
    /// FLEX blocks (the flexible EU counters).
    Flex,
}

impl ListKind {
    /// The list of a metric set's register block type (`NOA`, `OA`,
    /// `FLEX`, as the metric descriptions name them; case-insensitive).
    pub fn of_block(block: &str) -> Option<Self> {
        match block.to_ascii_uppercase().as_str() {
            "NOA" => Some(ListKind::Mux),
            "OA" => Some(ListKind::Boolean),
            "FLEX" => Some(ListKind::Flex),
            _ => None,
        }
    }

    /// The list's name in the uAPI (`mux`, `boolean`, `flex`).
    pub fn name(self) -> &'static str {
        match self {
            ListKind::Mux => "mux",
            ListKind::Boolean => "boolean",
            ListKind::Flex => "flex",
        }
    }
}

/// What is wrong with a configuration or its sysfs entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The uuid is not 36 characters of the form 8-4-4-4-12 hex digits.
    BadUuid {
        /// The uuid given.
        uuid: String,
        /// What is wrong.
        why: &'static str,
    },
    /// An address or value wider than 32 bits.
    TooWide {
        /// The list.
        list: ListKind,
        /// The address.
        address: u64,
        /// The value.
        value: u64,
    },
    /// A list longer than the kernel's u32 count.
    TooMany {
        /// The list ("xe" for Xe's one list).
        list: &'static str,
        /// Its length.
        len: usize,
    },
    /// A sysfs file could not be read.
    Sysfs {
        /// The file.
        path: PathBuf,
        /// The error.
        error: String,
    },
    /// A sysfs `id` file that does not hold a config id.
    BadId {
        /// The file.
        path: PathBuf,
        /// What it holds.
        content: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::BadUuid { uuid, why } => write!(
                f,
                "config uuid {uuid:?}: {why} (a uuid is 36 characters: 8-4-4-4-12 hex digits)"
            ),
            ConfigError::TooWide {
                list,
                address,
                value,
            } => write!(
                f,
                "{} register {address:#x} = {value:#x}: addresses and values are 32 bits in an OA config",
                list.name()
            ),
            ConfigError::TooMany { list, len } => {
                write!(f, "{list} list of {len} registers: more than a u32 can count")
            }
            ConfigError::Sysfs { path, error } => {
                write!(f, "reading {}: {error}", path.display())
            }
            ConfigError::BadId { path, content } => write!(
                f,
                "{} holds {content:?}, not a config id",
                path.display()
            ),
        }
    }
}

impl core::error::Error for ConfigError {}

/// Check that `uuid` is 36 characters of the form 8-4-4-4-12 hex digits.
pub fn check_uuid(uuid: &str) -> Result<(), ConfigError> {
    let bad = |why| {
        Err(ConfigError::BadUuid {
            uuid: uuid.to_string(),
            why,
        })
    };
    if uuid.len() != UUID_LEN {
        return bad("not 36 characters");
    }
    for (i, c) in uuid.bytes().enumerate() {
        let dash = matches!(i, 8 | 13 | 18 | 23);
        if dash && c != b'-' {
            return bad("a dash is missing at 8, 13, 18 or 23");
        }
        if !dash && !c.is_ascii_hexdigit() {
            return bad("a character is not a hex digit");
        }
    }
    Ok(())
}

/// An OA configuration: uuid and the three register lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OaConfig {
    uuid: String,
    mux: Vec<RegPair>,
    boolean: Vec<RegPair>,
    flex: Vec<RegPair>,
}

impl OaConfig {
    /// An empty configuration named `uuid` (checked).
    pub fn new(uuid: &str) -> Result<Self, ConfigError> {
        check_uuid(uuid)?;
        Ok(OaConfig {
            uuid: uuid.to_string(),
            ..OaConfig::default()
        })
    }

    /// The uuid.
    pub fn uuid(&self) -> &str {
        &self.uuid
    }

    /// Append `address = value` to `list`; both must fit 32 bits.
    pub fn push(&mut self, list: ListKind, address: u64, value: u64) -> Result<(), ConfigError> {
        let (Ok(a), Ok(v)) = (u32::try_from(address), u32::try_from(value)) else {
            return Err(ConfigError::TooWide {
                list,
                address,
                value,
            });
        };
        let pair = RegPair {
            address: a,
            value: v,
        };
        match list {
            ListKind::Mux => self.mux.push(pair),
            ListKind::Boolean => self.boolean.push(pair),
            ListKind::Flex => self.flex.push(pair),
        }
        Ok(())
    }

    /// The registers of `list`, in order.
    pub fn list(&self, list: ListKind) -> &[RegPair] {
        match list {
            ListKind::Mux => &self.mux,
            ListKind::Boolean => &self.boolean,
            ListKind::Flex => &self.flex,
        }
    }

    /// Xe's one list: mux, then boolean, then flex.
    pub fn xe_regs(&self) -> Vec<RegPair> {
        [&self.mux, &self.boolean, &self.flex]
            .into_iter()
            .flatten()
            .copied()
            .collect()
    }

    fn uuid_bytes(&self) -> [u8; UUID_LEN] {
        let mut u = [0u8; UUID_LEN];
        u.copy_from_slice(&self.uuid.as_bytes()[..UUID_LEN]);
        u
    }

    /// `struct drm_i915_perf_oa_config` with the lists at `ptrs` (mux,
    /// boolean, flex; the addresses of [`list`](Self::list)'s slices when
    /// uploading).
    pub fn i915_struct(&self, ptrs: [u64; 3]) -> Result<DrmI915PerfOaConfig, ConfigError> {
        let n = |list: &'static str, v: &[RegPair]| {
            u32::try_from(v.len()).map_err(|_| ConfigError::TooMany { list, len: v.len() })
        };
        Ok(DrmI915PerfOaConfig {
            uuid: self.uuid_bytes(),
            n_mux_regs: n("mux", &self.mux)?,
            n_boolean_regs: n("boolean", &self.boolean)?,
            n_flex_regs: n("flex", &self.flex)?,
            mux_regs_ptr: ptrs[0],
            boolean_regs_ptr: ptrs[1],
            flex_regs_ptr: ptrs[2],
        })
    }

    /// `struct drm_xe_oa_config` for `n_regs` registers at `regs_ptr`.
    pub fn xe_struct(&self, n_regs: usize, regs_ptr: u64) -> Result<DrmXeOaConfig, ConfigError> {
        Ok(DrmXeOaConfig {
            extensions: 0,
            uuid: self.uuid_bytes(),
            n_regs: u32::try_from(n_regs).map_err(|_| ConfigError::TooMany {
                list: "xe",
                len: n_regs,
            })?,
            regs_ptr,
        })
    }
}

/// The 72 bytes of `c` as the kernel reads them (x86_64 layout,
/// little-endian, padding zero).
pub fn i915_struct_bytes(c: &DrmI915PerfOaConfig) -> [u8; 72] {
    let mut b = [0u8; 72];
    b[..36].copy_from_slice(&c.uuid);
    b[36..40].copy_from_slice(&c.n_mux_regs.to_le_bytes());
    b[40..44].copy_from_slice(&c.n_boolean_regs.to_le_bytes());
    b[44..48].copy_from_slice(&c.n_flex_regs.to_le_bytes());
    b[48..56].copy_from_slice(&c.mux_regs_ptr.to_le_bytes());
    b[56..64].copy_from_slice(&c.boolean_regs_ptr.to_le_bytes());
    b[64..72].copy_from_slice(&c.flex_regs_ptr.to_le_bytes());
    b
}

/// The 56 bytes of `c` as the kernel reads them (little-endian, padding
/// zero).
pub fn xe_struct_bytes(c: &DrmXeOaConfig) -> [u8; 56] {
    let mut b = [0u8; 56];
    b[..8].copy_from_slice(&c.extensions.to_le_bytes());
    b[8..44].copy_from_slice(&c.uuid);
    b[44..48].copy_from_slice(&c.n_regs.to_le_bytes());
    b[48..56].copy_from_slice(&c.regs_ptr.to_le_bytes());
    b
}

/// A register list as the kernel reads it: `(u32 address, u32 value)`
/// pairs, little-endian.
pub fn regs_bytes(regs: &[RegPair]) -> Vec<u8> {
    regs.iter()
        .flat_map(|r| {
            let mut b = [0u8; 8];
            b[..4].copy_from_slice(&r.address.to_le_bytes());
            b[4..].copy_from_slice(&r.value.to_le_bytes());
            b
        })
        .collect()
}

/// The id the kernel gave config `uuid`, from `<card_dir>/metrics/<uuid>/id`
/// (`card_dir`: the card's sysfs directory, e.g. `/sys/class/drm/card0`).
/// `Ok(None)` when no such config is registered.
pub fn find_id(card_dir: &Path, uuid: &str) -> Result<Option<u64>, ConfigError> {
    check_uuid(uuid)?;
    let path = card_dir.join("metrics").join(uuid).join("id");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ConfigError::Sysfs {
                path,
                error: e.to_string(),
            })
        }
    };
    let t = text.trim();
    let id = t.parse::<u64>().ok().filter(|&id| id != 0);
    id.map(Some).ok_or(ConfigError::BadId {
        path,
        content: t.to_string(),
    })
}

#[cfg(target_os = "linux")]
pub use linux::{add, ensure, remove};

#[cfg(target_os = "linux")]
mod linux {
    use std::os::fd::AsFd;

    use super::*;
    use crate::errno::{code, Driver, KernelError, Op, StreamError};
    use crate::uapi::{call, i915, xe};

    impl From<ConfigError> for StreamError {
        fn from(e: ConfigError) -> Self {
            StreamError::Invalid(e.to_string())
        }
    }

    /// ADD_CONFIG of `config` on DRM fd `drm` of `driver` (i915 or Xe):
    /// the new config id. A uuid already registered fails with
    /// `EADDRINUSE` (see [`ensure`]).
    pub fn add(drm: impl AsFd, driver: Driver, config: &OaConfig) -> Result<u64, StreamError> {
        let op = Op::AddConfig {
            uuid: config.uuid().to_string(),
        };
        let id = match driver {
            Driver::Xe => {
                let regs = config.xe_regs();
                let mut c = config.xe_struct(regs.len(), regs.as_ptr() as u64)?;
                let mut param = xe::DrmXeObservationParam {
                    extensions: 0,
                    observation_type: xe::OBSERVATION_TYPE_OA,
                    observation_op: xe::OBSERVATION_OP_ADD_CONFIG,
                    param: (&mut c as *mut xe::DrmXeOaConfig) as u64,
                };
                // SAFETY: OBSERVATION/ADD_CONFIG takes an observation
                // param pointing to a drm_xe_oa_config whose regs_ptr
                // points to n_regs pairs; all live across the call.
                unsafe {
                    call::ioctl(
                        &drm,
                        xe::ioctl::OBSERVATION,
                        (&mut param as *mut xe::DrmXeObservationParam).cast(),
                    )
                }
            }
            _ => {
                let ptrs = [ListKind::Mux, ListKind::Boolean, ListKind::Flex]
                    .map(|k| config.list(k).as_ptr() as u64);
                let mut c = config.i915_struct(ptrs)?;
                // SAFETY: ADD_CONFIG takes a drm_i915_perf_oa_config whose
                // list pointers point to the counted pairs, alive across
                // the call.
                unsafe {
                    call::ioctl(
                        &drm,
                        i915::ioctl::PERF_ADD_CONFIG,
                        (&mut c as *mut i915::DrmI915PerfOaConfig).cast(),
                    )
                }
            }
        }
        .map_err(|e| KernelError::new(driver, op.clone(), e))?;
        u64::try_from(id)
            .ok()
            .filter(|&id| id != 0)
            .ok_or_else(|| StreamError::Invalid(format!("{driver}: ADD_CONFIG answered id {id}")))
    }

    /// REMOVE_CONFIG of config `id`.
    pub fn remove(drm: impl AsFd, driver: Driver, id: u64) -> Result<(), StreamError> {
        let mut id_arg = id;
        let r = match driver {
            Driver::Xe => {
                let mut param = xe::DrmXeObservationParam {
                    extensions: 0,
                    observation_type: xe::OBSERVATION_TYPE_OA,
                    observation_op: xe::OBSERVATION_OP_REMOVE_CONFIG,
                    param: (&mut id_arg as *mut u64) as u64,
                };
                // SAFETY: REMOVE_CONFIG's param points to a u64 id.
                unsafe {
                    call::ioctl(
                        &drm,
                        xe::ioctl::OBSERVATION,
                        (&mut param as *mut xe::DrmXeObservationParam).cast(),
                    )
                }
            }
            // SAFETY: PERF_REMOVE_CONFIG takes a pointer to a u64 id.
            _ => unsafe {
                call::ioctl(
                    &drm,
                    i915::ioctl::PERF_REMOVE_CONFIG,
                    (&mut id_arg as *mut u64).cast(),
                )
            },
        };
        r.map(drop)
            .map_err(|e| KernelError::new(driver, Op::RemoveConfig { id }, e).into())
    }

    /// The config id of `config`: the one sysfs lists under `card_dir`,
    /// else a new one from ADD_CONFIG (then `true`: the caller added it
    /// and may remove it). A concurrent registration (`EADDRINUSE`) is
    /// answered by sysfs again.
    pub fn ensure(
        drm: impl AsFd,
        driver: Driver,
        card_dir: &Path,
        config: &OaConfig,
    ) -> Result<(u64, bool), StreamError> {
        if let Some(id) = find_id(card_dir, config.uuid())? {
            return Ok((id, false));
        }
        match add(drm, driver, config) {
            Ok(id) => Ok((id, true)),
            Err(e) if e.errno() == Some(code::EADDRINUSE) => {
                match find_id(card_dir, config.uuid())? {
                    Some(id) => Ok((id, false)),
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UUID: &str = "01234567-89ab-cdef-0123-456789abcdef";

    #[test]
    fn uuids_are_checked() {
        assert!(check_uuid(UUID).is_ok());
        for (bad, why) in [
            ("", "36"),
            ("01234567-89ab-cdef-0123-456789abcde", "36"),
            ("01234567x89ab-cdef-0123-456789abcdef", "dash"),
            ("0123456g-89ab-cdef-0123-456789abcdef", "hex"),
        ] {
            let e = OaConfig::new(bad).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains("8-4-4-4-12"), "{e}");
        }
    }

    #[test]
    fn lists_by_block_kind_and_wide_values_refused() {
        let mut c = OaConfig::new(UUID).unwrap();
        for (block, addr, v) in [
            ("NOA", 0x9888, 1),
            ("OA", 0x2740, 2),
            ("flex", 0xe458, 3),
            ("NOA", 0x9888, 4),
        ] {
            c.push(ListKind::of_block(block).unwrap(), addr, v).unwrap();
        }
        assert_eq!(ListKind::of_block("MUX"), None);
        assert_eq!(c.list(ListKind::Mux).len(), 2);
        assert_eq!(
            c.xe_regs().iter().map(|r| r.value).collect::<Vec<_>>(),
            [1, 4, 2, 3],
            "mux, boolean, flex"
        );
        let e = c.push(ListKind::Flex, 0x1_0000_0000, 0).unwrap_err();
        assert!(e.to_string().contains("flex register 0x100000000"), "{e}");
        assert!(c.push(ListKind::Boolean, 0x2740, 1 << 32).is_err());
        assert_eq!(c.list(ListKind::Flex).len(), 1, "nothing appended on error");
    }

    /// Every byte of the i915 struct: each count and each list pointer at
    /// its offset of the kernel's `struct drm_i915_perf_oa_config` (uuid
    /// 0..36, n_mux/n_boolean/n_flex 36..48, mux/boolean/flex pointers
    /// 48..72), with distinct values so no field can stand in for another;
    /// and the same bytes as the `#[repr(C)]` struct in memory.
    #[test]
    fn kernel_struct_bytes() {
        let mut c = OaConfig::new(UUID).unwrap();
        c.push(ListKind::Mux, 0x9888, 0x1234_5678).unwrap();
        c.push(ListKind::Boolean, 0x2740, 7).unwrap();
        c.push(ListKind::Boolean, 0x2744, 8).unwrap();
        c.push(ListKind::Flex, 0xe458, 9).unwrap();
        c.push(ListKind::Flex, 0xe558, 10).unwrap();
        c.push(ListKind::Flex, 0xe658, 11).unwrap();
        let ptrs = [
            0x1111_2222_3333_4401,
            0x5555_6666_7777_8802,
            0x9999_AAAA_BBBB_CC03,
        ];
        let s = c.i915_struct(ptrs).unwrap();
        let b = i915_struct_bytes(&s);
        let mut want = Vec::with_capacity(72);
        want.extend_from_slice(UUID.as_bytes());
        for n in [1u32, 2, 3] {
            want.extend_from_slice(&n.to_le_bytes()); // n_mux, n_boolean, n_flex
        }
        for p in ptrs {
            want.extend_from_slice(&p.to_le_bytes()); // mux, boolean, flex
        }
        assert_eq!(b.as_slice(), want.as_slice(), "every byte of the struct");
        assert_eq!(&b[40..44], &2u32.to_le_bytes(), "n_boolean_regs");
        assert_eq!(&b[56..64], &ptrs[1].to_le_bytes(), "boolean_regs_ptr");
        if cfg!(target_endian = "little") {
            // SAFETY: `s` is a `#[repr(C)]` struct of 72 bytes without
            // padding (its layout is asserted at compile time), read as bytes
            // while it is borrowed.
            let mem = unsafe {
                std::slice::from_raw_parts((&s as *const DrmI915PerfOaConfig).cast::<u8>(), 72)
            };
            assert_eq!(mem, b.as_slice(), "the struct as the kernel reads it");
        }
        let regs = c.xe_regs();
        let x = c.xe_struct(regs.len(), 0xABCD).unwrap();
        let b = xe_struct_bytes(&x);
        assert_eq!(&b[..8], &[0; 8]);
        assert_eq!(&b[8..44], UUID.as_bytes());
        assert_eq!(&b[44..48], &6u32.to_le_bytes());
        assert_eq!(&b[48..], &0xABCDu64.to_le_bytes());
        assert_eq!(
            regs_bytes(&regs[..1]),
            [0x88, 0x98, 0, 0, 0x78, 0x56, 0x34, 0x12]
        );
    }

    #[test]
    fn sysfs_id_lookup_on_a_tree() {
        let dir = std::env::temp_dir().join(format!("perfregs-cfg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let other = "ffffffff-89ab-cdef-0123-456789abcdef";
        let bad = "eeeeeeee-89ab-cdef-0123-456789abcdef";
        for (u, content) in [(UUID, "42\n"), (bad, "forty")] {
            std::fs::create_dir_all(dir.join("metrics").join(u)).unwrap();
            std::fs::write(dir.join("metrics").join(u).join("id"), content).unwrap();
        }
        assert_eq!(find_id(&dir, UUID), Ok(Some(42)));
        assert_eq!(find_id(&dir, other), Ok(None));
        let e = find_id(&dir, bad).unwrap_err();
        assert!(
            matches!(&e, ConfigError::BadId { content, .. } if content == "forty"),
            "{e}"
        );
        assert!(matches!(
            find_id(&dir, "x"),
            Err(ConfigError::BadUuid { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
