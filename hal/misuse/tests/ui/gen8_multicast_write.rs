// GEN8_MCR_SELECTOR (BDW to CNL) has no multicast bit: no public source says
// whether a steered CPU write reaches one instance or all, so the multicast
// `write`, the unicast `write_one` and `modify` do not compile on these
// projects; `write_each` and the steered reads do.
use perfregs::hal::{bdw, Bdw, Device, SliceBus};

fn main() {
    let mut mem = vec![0u32; 0xF000 / 4];
    let gpu = Device::<Bdw, _>::new(SliceBus::new(&mut mem));
    let rw = gpu.assume_awake::<bdw::domains::Render>();
    let mut mcr = gpu.steering(&rw);
    mcr.write(bdw::EU_PERF_CNT_CTL0, &rw, |w| w);
    let _ = mcr.write_one(bdw::EU_PERF_CNT_CTL0, 1, &rw, |w| w);
    let _ = mcr.modify(bdw::EU_PERF_CNT_CTL0, 1, &rw, |_, w| w);
    let _ = mcr.write_each(bdw::EU_PERF_CNT_CTL0, &rw, |w| w);
    let _ = mcr.read(bdw::EU_PERF_CNT_CTL0, 1, &rw);
}
