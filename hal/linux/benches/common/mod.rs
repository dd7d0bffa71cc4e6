//! What the benches share: a stream of SAMPLE records as i915 frames them.

use perfregs_linux::record::Record;

/// Reports per stream.
pub const REPORTS: usize = 4096;
/// Bytes per report (TGL's A32u40_A4u32_B8_C8).
pub const SIZE: usize = 256;

/// `REPORTS` SAMPLE records, report `k` filled by `fill(k, report)` (the
/// report keeps what the previous call left in it).
pub fn stream(mut fill: impl FnMut(u32, &mut [u8; SIZE])) -> Vec<u8> {
    let mut out = Vec::with_capacity(REPORTS * (SIZE + 8));
    let mut r = [0u8; SIZE];
    for k in 0..REPORTS as u32 {
        fill(k, &mut r);
        Record::Sample(&r)
            .write_to(&mut out)
            .expect("a 264-byte record");
    }
    out
}
