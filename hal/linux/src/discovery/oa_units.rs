//! xe's OA units (`DRM_XE_DEVICE_QUERY_OA_UNITS`): the answer read without
//! trusting it, the same answer written (the emulated kernel gives it), and
//! the units a catalogue project describes, as the kernel would list them.
//!
//! Layout (Linux `include/uapi/drm/xe_drm.h`, `struct drm_xe_query_oa_units`
//! and `struct drm_xe_oa_unit`; offsets in [`crate::uapi::xe`]): a 16-byte
//! header (`extensions`, `num_oa_units`, `pad`), then per unit 72 bytes
//! (`oa_unit_id`, `oa_unit_type`, `capabilities`, `oa_timestamp_freq`,
//! `gt_id` from Linux 6.19, `num_engines`) followed by `num_engines` 8-byte
//! `struct drm_xe_engine_class_instance`.

use crate::uapi::xe::{
    DRM_XE_OA_CAPS_BASE, DRM_XE_OA_UNIT_TYPE_MERT, DRM_XE_OA_UNIT_TYPE_OAG,
    DRM_XE_OA_UNIT_TYPE_OAM, DRM_XE_OA_UNIT_TYPE_OAM_SAG, XE_ENGINE_CLASS_INSTANCE_SIZE,
    XE_OA_UNITS_HEADER_SIZE, XE_OA_UNIT_CAPABILITIES_OFFSET, XE_OA_UNIT_GT_ID_OFFSET,
    XE_OA_UNIT_ID_OFFSET, XE_OA_UNIT_NUM_ENGINES_OFFSET, XE_OA_UNIT_SIZE,
    XE_OA_UNIT_TIMESTAMP_FREQ_OFFSET, XE_OA_UNIT_TYPE_OFFSET,
};
use crate::xe_recording::engine_class;
use std::fmt;

/// One engine attached to an OA unit (`struct drm_xe_engine_class_instance`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Engine {
    /// `DRM_XE_ENGINE_CLASS_*`.
    pub class: u16,
    /// Instance within the class.
    pub instance: u16,
    /// The GT the engine is on.
    pub gt: u16,
}

impl Engine {
    /// The class's name in the catalogue (`render`, `video`, ...), or `None`.
    pub fn class_name(&self) -> Option<&'static str> {
        CLASSES
            .iter()
            .find(|(_, c)| *c == self.class)
            .map(|(n, _)| *n)
    }
}

impl fmt::Display for Engine {
    /// `video:2` (`class 9:2` for a class perfregs does not know).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class_name() {
            Some(n) => write!(f, "{n}:{}", self.instance),
            None => write!(f, "class {}:{}", self.class, self.instance),
        }
    }
}

/// Catalogue engine class names and xe's class numbers.
const CLASSES: [(&str, u16); 5] = [
    ("render", engine_class::RENDER as u16),
    ("copy", engine_class::COPY as u16),
    ("video", engine_class::VIDEO_DECODE as u16),
    ("video_enhance", engine_class::VIDEO_ENHANCE as u16),
    ("compute", engine_class::COMPUTE as u16),
];

/// Catalogue unit kinds and xe's unit types.
const KINDS: [(&str, u32); 4] = [
    ("oag", DRM_XE_OA_UNIT_TYPE_OAG),
    ("oam", DRM_XE_OA_UNIT_TYPE_OAM),
    ("oam_sag", DRM_XE_OA_UNIT_TYPE_OAM_SAG),
    ("mert", DRM_XE_OA_UNIT_TYPE_MERT),
];

/// One OA unit as xe describes it (`struct drm_xe_oa_unit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XeOaUnit {
    /// `oa_unit_id`: what `DRM_XE_OA_PROPERTY_OA_UNIT_ID` names.
    pub id: u32,
    /// `oa_unit_type` (`DRM_XE_OA_UNIT_TYPE_*`).
    pub kind: u32,
    /// `capabilities` (`DRM_XE_OA_CAPS_*`).
    pub capabilities: u64,
    /// `oa_timestamp_freq` (Hz).
    pub timestamp_hz: u64,
    /// `gt_id` (0 from kernels before 6.19, where the field was reserved).
    pub gt: u16,
    /// The engines whose work the unit observes.
    pub engines: Vec<Engine>,
}

impl XeOaUnit {
    /// The unit type's catalogue kind (`oag`, `oam`, `oam_sag`), or `None`.
    pub fn kind_name(&self) -> Option<&'static str> {
        KINDS.iter().find(|(_, k)| *k == self.kind).map(|(n, _)| *n)
    }
}

impl fmt::Display for XeOaUnit {
    /// `unit 1 oam (GT 1, 19200000 Hz): video:0 video_enhance:0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {} ", self.id)?;
        match self.kind_name() {
            Some(k) => write!(f, "{k}")?,
            None => write!(f, "type {}", self.kind)?,
        }
        write!(f, " (GT {}, {} Hz):", self.gt, self.timestamp_hz)?;
        if self.engines.is_empty() {
            return write!(f, " no engines");
        }
        for e in &self.engines {
            write!(f, " {e}")?;
        }
        Ok(())
    }
}

/// A malformed OA-units answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OaUnitsError {
    /// A field lies (partly) outside the answer.
    OutOfBounds {
        /// Which field (`unit 2 engines`).
        what: String,
        /// Its first byte.
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// Bytes in the answer.
        len: usize,
    },
    /// A catalogue engine that is not `class` or `class:instance`.
    Engine(String),
    /// A catalogue unit kind xe has no unit type for.
    Kind(String),
}

impl fmt::Display for OaUnitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OaUnitsError::OutOfBounds {
                what,
                offset,
                needed,
                len,
            } => write!(
                f,
                "OA units: {what} needs bytes {offset}..{} of a {len}-byte answer",
                offset.saturating_add(*needed)
            ),
            OaUnitsError::Engine(e) => write!(
                f,
                "OA units: engine `{e}` is not `class` or `class:instance` of a known class"
            ),
            OaUnitsError::Kind(k) => write!(f, "OA units: xe has no unit type for kind `{k}`"),
        }
    }
}

impl std::error::Error for OaUnitsError {}

fn bytes<'a>(
    b: &'a [u8],
    at: usize,
    n: usize,
    what: &dyn Fn() -> String,
) -> Result<&'a [u8], OaUnitsError> {
    at.checked_add(n)
        .and_then(|end| b.get(at..end))
        .ok_or_else(|| OaUnitsError::OutOfBounds {
            what: what(),
            offset: at,
            needed: n,
            len: b.len(),
        })
}

fn u16_at(b: &[u8], at: usize, what: &dyn Fn() -> String) -> Result<u16, OaUnitsError> {
    let x = bytes(b, at, 2, what)?;
    Ok(u16::from_le_bytes([x[0], x[1]]))
}

fn u32_at(b: &[u8], at: usize, what: &dyn Fn() -> String) -> Result<u32, OaUnitsError> {
    let x = bytes(b, at, 4, what)?;
    Ok(u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
}

fn u64_at(b: &[u8], at: usize, what: &dyn Fn() -> String) -> Result<u64, OaUnitsError> {
    let x = bytes(b, at, 8, what)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(x);
    Ok(u64::from_le_bytes(a))
}

/// The units of a `DRM_XE_DEVICE_QUERY_OA_UNITS` answer. Every count is
/// checked against the answer's length before anything is allocated.
pub fn parse(answer: &[u8]) -> Result<Vec<XeOaUnit>, OaUnitsError> {
    let n = u32_at(answer, 8, &|| "num_oa_units".into())? as usize;
    // Each unit takes at least XE_OA_UNIT_SIZE bytes: a count the answer
    // cannot hold fails on the first unit past its end, not in an allocation.
    let mut units = Vec::with_capacity(n.min(answer.len() / XE_OA_UNIT_SIZE));
    let mut at = XE_OA_UNITS_HEADER_SIZE;
    for i in 0..n {
        let what = |f: &'static str| move || format!("unit {i} {f}");
        bytes(answer, at, XE_OA_UNIT_SIZE, &what("header"))?;
        let engines = u64_at(
            answer,
            at + XE_OA_UNIT_NUM_ENGINES_OFFSET,
            &what("num_engines"),
        )?;
        let room = (answer.len() - at - XE_OA_UNIT_SIZE) / XE_ENGINE_CLASS_INSTANCE_SIZE;
        if engines > room as u64 {
            return Err(OaUnitsError::OutOfBounds {
                what: format!("unit {i} engines ({engines})"),
                offset: at + XE_OA_UNIT_SIZE,
                needed: usize::try_from(engines)
                    .unwrap_or(usize::MAX)
                    .saturating_mul(XE_ENGINE_CLASS_INSTANCE_SIZE),
                len: answer.len(),
            });
        }
        let mut unit = XeOaUnit {
            id: u32_at(answer, at + XE_OA_UNIT_ID_OFFSET, &what("oa_unit_id"))?,
            kind: u32_at(answer, at + XE_OA_UNIT_TYPE_OFFSET, &what("oa_unit_type"))?,
            capabilities: u64_at(
                answer,
                at + XE_OA_UNIT_CAPABILITIES_OFFSET,
                &what("capabilities"),
            )?,
            timestamp_hz: u64_at(
                answer,
                at + XE_OA_UNIT_TIMESTAMP_FREQ_OFFSET,
                &what("oa_timestamp_freq"),
            )?,
            gt: u16_at(answer, at + XE_OA_UNIT_GT_ID_OFFSET, &what("gt_id"))?,
            engines: Vec::with_capacity(engines as usize),
        };
        at += XE_OA_UNIT_SIZE;
        for k in 0..engines as usize {
            let w = |f: &'static str| move || format!("unit {i} engine {k} {f}");
            unit.engines.push(Engine {
                class: u16_at(answer, at, &w("class"))?,
                instance: u16_at(answer, at + 2, &w("instance"))?,
                gt: u16_at(answer, at + 4, &w("gt_id"))?,
            });
            at += XE_ENGINE_CLASS_INSTANCE_SIZE;
        }
        units.push(unit);
    }
    Ok(units)
}

/// `units` as the kernel writes them (the inverse of [`parse`]).
pub fn encode(units: &[XeOaUnit]) -> Vec<u8> {
    let mut out = vec![0u8; XE_OA_UNITS_HEADER_SIZE];
    out[8..12].copy_from_slice(&(units.len() as u32).to_le_bytes());
    for u in units {
        let mut rec = [0u8; XE_OA_UNIT_SIZE];
        rec[XE_OA_UNIT_ID_OFFSET..][..4].copy_from_slice(&u.id.to_le_bytes());
        rec[XE_OA_UNIT_TYPE_OFFSET..][..4].copy_from_slice(&u.kind.to_le_bytes());
        rec[XE_OA_UNIT_CAPABILITIES_OFFSET..][..8].copy_from_slice(&u.capabilities.to_le_bytes());
        rec[XE_OA_UNIT_TIMESTAMP_FREQ_OFFSET..][..8].copy_from_slice(&u.timestamp_hz.to_le_bytes());
        rec[XE_OA_UNIT_GT_ID_OFFSET..][..2].copy_from_slice(&u.gt.to_le_bytes());
        rec[XE_OA_UNIT_NUM_ENGINES_OFFSET..][..8]
            .copy_from_slice(&(u.engines.len() as u64).to_le_bytes());
        out.extend_from_slice(&rec);
        for e in &u.engines {
            out.extend_from_slice(&e.class.to_le_bytes());
            out.extend_from_slice(&e.instance.to_le_bytes());
            out.extend_from_slice(&e.gt.to_le_bytes());
            out.extend_from_slice(&[0, 0]);
        }
    }
    out
}

/// A catalogue engine (`video`, `video:2`) as xe's class and instance; a bare
/// class is its instance 0 (the emulated parts have one engine of a class
/// unless the catalogue names more).
pub fn engine(name: &str) -> Result<(u16, u16), OaUnitsError> {
    let bad = || OaUnitsError::Engine(name.to_string());
    let (class, instance) = match name.split_once(':') {
        Some((c, i)) => (c, i.parse::<u16>().map_err(|_| bad())?),
        None => (name, 0),
    };
    CLASSES
        .iter()
        .find(|(n, _)| *n == class)
        .map(|(_, c)| (*c, instance))
        .ok_or_else(bad)
}

/// The OA units of `project` as xe lists them: one per catalogue unit, in
/// catalogue order (the render unit first, as xe numbers them), with
/// `timestamp_hz` for every unit. A render-class unit is on GT 0, a media
/// unit (no render or compute engine, or kind `oam`/`oam_sag`) on GT 1.
/// `None` when the project has no OA unit.
pub fn of_project(
    project: &hal::meta::ProjectInfo,
    timestamp_hz: u64,
) -> Option<Result<Vec<XeOaUnit>, OaUnitsError>> {
    let oa = project.gpu?.oa?;
    Some(
        oa.units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let kind = KINDS
                    .iter()
                    .find(|(n, _)| *n == u.kind)
                    .map(|(_, k)| *k)
                    .ok_or_else(|| OaUnitsError::Kind(u.kind.to_string()))?;
                let gt = u16::from(kind != DRM_XE_OA_UNIT_TYPE_OAG);
                let engines = u
                    .engines
                    .iter()
                    .map(|e| {
                        engine(e).map(|(class, instance)| Engine {
                            class,
                            instance,
                            gt,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(XeOaUnit {
                    id: i as u32,
                    kind,
                    capabilities: DRM_XE_OA_CAPS_BASE,
                    timestamp_hz,
                    gt,
                    engines,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two units written byte by byte from the layout in xe_drm.h (not with
    /// [`encode`]): an OAG on GT 0 with RCS0 and CCS0, an OAM on GT 1 with
    /// VCS0, VCS2 and VECS0.
    fn answer() -> Vec<u8> {
        let mut b = vec![0u8; 16];
        b[8] = 2; // num_oa_units
        let mut unit = |id: u8, kind: u8, gt: u8, engines: &[(u8, u8)]| {
            let mut r = vec![0u8; 72];
            r[8] = id; // oa_unit_id @ 8
            r[12] = kind; // oa_unit_type @ 12
            r[16] = 1; // capabilities @ 16: BASE
            r[24..32].copy_from_slice(&19_200_000u64.to_le_bytes()); // oa_timestamp_freq @ 24
            r[32] = gt; // gt_id @ 32
            r[64] = engines.len() as u8; // num_engines @ 64
            for (c, i) in engines {
                r.extend_from_slice(&[*c, 0, *i, 0, gt, 0, 0, 0]);
            }
            b.extend_from_slice(&r);
        };
        unit(0, 0, 0, &[(0, 0), (4, 0)]);
        unit(1, 1, 1, &[(2, 0), (2, 2), (3, 0)]);
        b
    }

    #[test]
    fn reads_the_kernel_layout() {
        let units = parse(&answer()).expect("valid");
        assert_eq!(units.len(), 2);
        assert_eq!(
            (units[0].id, units[0].kind_name(), units[0].gt),
            (0, Some("oag"), 0)
        );
        assert_eq!(
            units[1].to_string(),
            "unit 1 oam (GT 1, 19200000 Hz): video:0 video:2 video_enhance:0"
        );
        assert_eq!(units[0].timestamp_hz, 19_200_000);
        assert_eq!(encode(&units), answer());
    }

    #[test]
    fn every_truncation_is_an_error() {
        let a = answer();
        for n in 0..a.len() {
            assert!(parse(&a[..n]).is_err(), "{n} bytes");
        }
        let mut huge = answer();
        huge[16 + 64..16 + 72].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            parse(&huge),
            Err(OaUnitsError::OutOfBounds { .. })
        ));
        let mut many = answer();
        many[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(parse(&many).is_err());
    }

    #[test]
    fn engines_name_a_class_and_instance() {
        assert_eq!(
            engine("video:2"),
            Ok((engine_class::VIDEO_DECODE as u16, 2))
        );
        assert_eq!(engine("render"), Ok((engine_class::RENDER as u16, 0)));
        assert!(engine("warp:1").is_err());
        assert!(engine("video:x").is_err());
    }

    /// Every catalogue project with OA units lists them for xe: unit ids in
    /// order, the first an OAG observing render, media units on GT 1.
    #[test]
    fn every_project_lists_its_units() {
        let xe = hal::PROJECTS.iter().filter(|p| {
            p.gpu
                .is_some_and(|g| g.drivers.contains(&hal::meta::Driver::Xe))
        });
        for p in xe {
            let Some(units) = of_project(p, 1) else {
                continue;
            };
            let units = units.unwrap_or_else(|e| panic!("{}: {e}", p.name));
            let oa = p.gpu.and_then(|g| g.oa).expect("units");
            assert_eq!(units.len(), oa.units.len(), "{}", p.name);
            assert!(
                parse(&encode(&units)).is_ok_and(|u| u == units),
                "{}",
                p.name
            );
            for (i, u) in units.iter().enumerate() {
                assert_eq!(u.id as usize, i);
                assert_eq!(
                    u.gt == 0,
                    u.kind_name() == Some("oag") || u.kind_name().is_none(),
                    "{}",
                    p.name
                );
            }
        }
    }
}
