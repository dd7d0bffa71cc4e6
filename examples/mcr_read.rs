//! Multicast steering on an emulated Tiger Lake with DSS 2 fused off:
//! multicast-write a DSS register, read it back per instance (DSS 2 reads
//! nothing: it is fused off), and show the steering register back at
//! multicast afterwards.
//!
//! Run: `cargo run --example mcr_read`

use perfregs::emu::{Emulator, Sku};
use perfregs::hal::{tgl, AlwaysAwake, Bits, Device, Register, Tgl};

fn main() {
    let gpu = Device::<Tgl, _>::new(Emulator::new(&tgl::PROJECT, Sku::default().fuse_dss(2)));
    let (gt, rw) = match (
        gpu.forcewake::<tgl::domains::Gt>(),
        gpu.forcewake::<tgl::domains::Render>(),
    ) {
        (Ok(gt), Ok(rw)) => (gt, rw),
        (Err(e), _) | (_, Err(e)) => return println!("force-wake failed: {e}"),
    };
    let fuses = gpu.read(tgl::MIRROR_FUSE_DSS_ENABLE, &gt);
    println!("fuse mirror: {fuses:?}");

    {
        let mut mcr = match gpu.try_steering(&gt) {
            Ok(mcr) => mcr,
            Err(e) => return println!("steering: {e}"),
        };
        let value = Bits::new(0x00C0_FFEE).unwrap_or_default();
        mcr.write(tgl::EU_PERF_CNT_CTL0, &rw, |w| w.value(value));
        println!("multicast-wrote EU_PERF_CNT_CTL0 = {value:?}");
        let present: Vec<u32> = mcr.instances::<tgl::EU_PERF_CNT_CTL0>().collect();
        for dss in 0..6 {
            match mcr.read(tgl::EU_PERF_CNT_CTL0, dss, &rw) {
                Some(v) => println!("  DSS {dss}: {:#x}", v.value().get()),
                None => println!("  DSS {dss}: fused off (not read)"),
            }
        }
        println!("present instances: {present:?}");
    }

    // Behind the typed API: steer to DSS 2 by hand and read it raw, as a
    // careless driver would. The fused-off instance reads 0.
    let addr = <tgl::EU_PERF_CNT_CTL0 as Register>::ADDRESS;
    let selector = <tgl::MCR_SELECTOR as Register>::ADDRESS;
    let (v, entry) = gpu.with_bus(|e| {
        e.write32(selector, 2 << 24); // unicast, slice 0, subslice 2
        let v = e.read32(addr);
        e.write32(selector, 1 << 31); // back to multicast
        (v, e.trace().iter().rev().nth(1).map(|t| t.to_string()))
    });
    println!(
        "raw unicast read of DSS 2: {v:#x}  ({})",
        entry.unwrap_or_default()
    );
    println!(
        "steering register afterwards: {:?}",
        gpu.read(tgl::MCR_SELECTOR, &AlwaysAwake)
    );
    // What the emulated hardware did wrong without telling (none expected
    // unless the example shows one on purpose).
    let n = gpu.with_bus(|e| e.print_warnings());
    println!("\nemulator warnings: {n}");
}
