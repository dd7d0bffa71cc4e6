//! The emulator's cost, against the simplest thing doing the same work.
//!
//! - `rw_access`: 1000 rounds of `read32` + `write32` (read, add the round
//!   number, write back) on HSW `OACONTROL`, a 32-bit RW register, in the
//!   register file alone (the OA model, which watches `OACONTROL`, off):
//!   - `emulator`: through `Bus<Mmio>` on an [`Emulator`] (render awake,
//!     tracing off): direct index lookup, wake check, access rules;
//!   - `emulator_traced`: the same with tracing on (trace cleared per sample);
//!   - `vec_u32`: a bare `Vec<u32>` indexed by `addr / 4`.
//!
//!   The address goes through `black_box` every round on both sides, so the
//!   `Vec` side cannot keep the word in a register: it really loads and
//!   stores 2000 times.
//! - `wake_domain`: the wake domain of 1024 fixed pseudo-random dword
//!   addresses below 0x240000 on TGL (199 force-wake table rows):
//!   - `direct_index`: [`Emulator::row_domain_of`] (two array loads);
//!   - `binary_search`: `partition_point` over the same `MapRow`s, the way
//!     Linux looks ranges up (`ProjectInfo::row_at` does the same).
//!
//! `main` first checks that each pair computes the same results.
//! Run with `cargo bench -p perfregs-emu --bench emulator`.

mod benches {
    use divan::counter::ItemsCount;
    use divan::{black_box, Bencher};
    use hal::meta::MapRow;
    use hal::{hsw, tgl, Bus, Mmio};
    use perfregs_emu::{Emulator, OaUnit, Sku};

    /// Rounds of read + write per sample.
    const ROUNDS: u32 = 1000;
    /// Addresses per wake-domain sample.
    const ADDRS: usize = 1024;

    fn oacontrol() -> u64 {
        hsw::PROJECT
            .register("OACONTROL")
            .map_or(0x2360, |r| r.address)
    }

    /// An HSW emulator with render awake.
    pub fn awake_hsw(tracing: bool) -> Emulator {
        let p = &hsw::PROJECT;
        let mut emu = Emulator::new(p, Sku::default());
        if let Some(req) = p.register("FORCEWAKE_MT") {
            emu.write32(req.address, 0x0001_0001);
        }
        emu.advance(Sku::DEFAULT_WAKE_LATENCY);
        assert!(emu.awake::<hal::hsw::domains::Render>());
        emu.set_tracing(tracing);
        emu.take_trace();
        emu.unit_mut::<OaUnit>().disable();
        emu
    }

    #[inline(always)]
    fn rounds<B: Bus<Mmio>>(bus: &mut B, addr: u64) -> u32 {
        let mut acc = 0;
        for i in 0..ROUNDS {
            let addr = black_box(addr);
            let v = bus.read32(addr);
            bus.write32(addr, v.wrapping_add(i));
            acc ^= v;
        }
        acc
    }

    #[inline(always)]
    fn rounds_vec(mem: &mut [u32], addr: u64) -> u32 {
        let mut acc = 0;
        for i in 0..ROUNDS {
            let addr = black_box(addr);
            let v = mem[(addr / 4) as usize];
            mem[(addr / 4) as usize] = v.wrapping_add(i);
            acc ^= v;
        }
        acc
    }

    /// The fixed pseudo-random addresses (xorshift64, dword-aligned).
    pub fn addresses() -> Vec<u64> {
        let mut x = perfregs_testkit::XorShift(0x2545_F491_4F6C_DD1D);
        (0..ADDRS).map(|_| x.below(0x24_0000) & !3).collect()
    }

    #[inline(always)]
    pub fn search(rows: &[MapRow], addr: u64) -> Option<&'static str> {
        let i = rows.partition_point(|r| r.end < addr);
        rows.get(i).filter(|r| r.start <= addr).and_then(|r| r.wake)
    }

    /// Check that each pair does the same work before timing it.
    pub fn check() {
        let addr = oacontrol();
        let mut emu = awake_hsw(false);
        let mut mem = vec![0u32; (addr / 4) as usize + 1];
        assert_eq!(rounds(&mut emu, addr), rounds_vec(&mut mem, addr));
        assert_eq!(emu.peek(addr, 0), Some(u64::from(mem[(addr / 4) as usize])));
        let emu = Emulator::new(&tgl::PROJECT, Sku::default());
        for a in addresses() {
            assert_eq!(emu.row_domain_of(a), search(tgl::PROJECT.map, a), "{a:#x}");
        }
    }

    #[divan::bench_group]
    mod rw_access {
        use super::*;

        #[divan::bench]
        fn emulator(b: Bencher) {
            let addr = oacontrol();
            let mut emu = awake_hsw(false);
            b.counter(ItemsCount::new(2 * ROUNDS as usize))
                .bench_local(|| rounds(black_box(&mut emu), black_box(addr)));
        }

        #[divan::bench]
        fn emulator_traced(b: Bencher) {
            let addr = oacontrol();
            let mut emu = awake_hsw(true);
            b.counter(ItemsCount::new(2 * ROUNDS as usize))
                .bench_local(|| {
                    emu.take_trace();
                    rounds(black_box(&mut emu), black_box(addr))
                });
        }

        #[divan::bench]
        fn vec_u32(b: Bencher) {
            let addr = oacontrol();
            let mut mem = vec![0u32; (addr / 4) as usize + 1];
            b.counter(ItemsCount::new(2 * ROUNDS as usize))
                .bench_local(|| rounds_vec(black_box(&mut mem), black_box(addr)));
        }
    }

    #[divan::bench_group]
    mod wake_domain {
        use super::*;

        #[divan::bench]
        fn direct_index(b: Bencher) {
            let emu = Emulator::new(&tgl::PROJECT, Sku::default());
            let addrs = addresses();
            b.counter(ItemsCount::new(addrs.len())).bench_local(|| {
                let emu = black_box(&emu);
                black_box(&addrs)
                    .iter()
                    .map(|&a| emu.row_domain_of(a).map_or(0, str::len))
                    .sum::<usize>()
            });
        }

        #[divan::bench]
        fn binary_search(b: Bencher) {
            let rows = tgl::PROJECT.map;
            let addrs = addresses();
            b.counter(ItemsCount::new(addrs.len())).bench_local(|| {
                let rows = black_box(rows);
                black_box(&addrs)
                    .iter()
                    .map(|&a| search(rows, a).map_or(0, str::len))
                    .sum::<usize>()
            });
        }
    }
}

fn main() {
    benches::check();
    divan::main();
}
