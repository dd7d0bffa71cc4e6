//! Typed HAL versus hand-written mask-and-shift code, on the same backend.
//!
//! Both sides drive an [`ArrayBus`] over a `[u32; 0x3000 / 4]` array standing
//! in for the HSW GT MMIO space. The typed side goes through
//! `Device<Hsw, ArrayBus>` (`read`, `write`, `modify` with named fields); the
//! raw side calls `Bus<Mmio>::read32` / `write32` on an `ArrayBus` directly
//! with hand-written addresses, masks and shifts (`OACONTROL` at `0x2360`, ...).
//! Each pair does the same work on the same values and writes the same words:
//!
//! - `read_fields`: read OACONTROL and extract timer_period (11:6),
//!   timer_enable (5) and counter_select (4:2); `read_fields_slice_bus`
//!   does the same over a `SliceBus` (a bus whose accesses can fail);
//! - `write_fields`: write OACONTROL from its reset value with timer_period,
//!   timer_enable, counter_select and counter_enable;
//! - `modify_tail`: read-modify-write OASTATUS1's tail_pointer (31:6), keeping
//!   the other bits as `modify` does (`read & KEEP_MASK`, insert the field);
//! - `oa_program_x1000`: 1000 rounds of programming the OA buffer (write
//!   OASTATUS2, OABUFFER, OASTATUS1, OACONTROL) and reading back OASTATUS1 and
//!   OACONTROL, folding what was read into a checksum.
//!
//! Inputs are runtime values, not constants: each iteration loads them
//! through a black-boxed reference to a static holding them as that side
//! holds them (`black_box(&WRITE_TYPED)`, `black_box(&OA_CONFIG)`), or passes
//! one `u64` through `black_box` (`TAIL`). The bus goes through `black_box`
//! too, so the accesses cannot be folded away. Before benchmarking, `main`
//! runs every pair once on fresh buses and asserts that both sides return the
//! same values and leave identical memory.
//!
//! Both sides reach the bus the same way: the bus borrowed once out of the
//! device's cell (an `IoGuard` from `Device::io` for the typed side, a
//! `RefMut` for the raw side), that guard black-boxed on each iteration and
//! dereferenced after the black box (`&mut *black_box(&mut guard)`, coerced
//! at the call; `&mut **` where the operation is generic over the bus), and
//! the operation handed what the guard derefs to: `&mut Io` (typed), `&mut
//! ArrayBus` (raw). `Io` is `repr(transparent)` over the bus, so the two are
//! the same pointer; `oa_program_x1000` black-boxes that handle on each round,
//! on both sides. The pair differs only in the typed API. `typed_device` adds
//! the per-access bus borrow check of `Device::read` and, the device being
//! unbranded (`Device::new`), the check that the proof is this device's (one
//! pointer comparison; none for a `brand!`ed device, nor on the `Io` side,
//! where a proof from `Io::assume_awake` is known to match).
//!
//! Reading the machine code (release): a typed read of OACONTROL's
//! timer_period, timer_enable (enum) and counter_select (enum) compiles to
//! the same load, shift and mask instructions as the hand-written version
//! (a complete enum decodes by a cast, never a `match`), and the typed writes
//! to the same stores; `oa_program_x1000` compiles to the same loop.
//!
//! Two choices keep the timings about the API, not about the harness:
//!
//! - The backend is a fixed-size array, whose bounds checks fold away for
//!   constant addresses. Over a `SliceBus` every access carries a length check
//!   and a branch, and on the machine this was tuned on (AMD Zen 5) the
//!   resulting branch-dense `oa_program_x1000` loop ran anywhere from 0.88x
//!   to 1.14x of the other side's speed depending only on where the linker
//!   happened to place code and data: the same instructions, moved by an
//!   unrelated edit elsewhere in the binary. Over the array it stays within
//!   1% whatever the layout.
//! - Inputs are loaded, not black-boxed one by one: `black_box(value)` spills
//!   each value through a stack slot of its type (`u8` enums on one side,
//!   `u32` and `bool` on the other), and the differing spill code alone cost
//!   one side 3-4% in `write_fields`.
//!
//! Run with `cargo bench -p perfregs-hal --bench typed_vs_raw`.

use divan::{black_box, Bencher};
use hal::enums::{BufferSizeHsw, ReportFormatHsw, TimerEnable};
use hal::{hsw, Bits, Bus, Device, Hsw, Io, Mmio, Register, SliceBus};

/// Words in the simulated MMIO space (0x3000 bytes).
const WORDS: usize = 0x3000 / 4;

type Gpu<'a> = Device<Hsw, ArrayBus<'a>>;
/// The typed side: the device's bus borrowed once (`Device::io`, which derefs
/// to `Io`), as a hot loop would.
type Typed<'d, 'a> = Io<'d, Hsw, ArrayBus<'a>>;

/// Hand-written register constants for the raw side (HSW, from regdefs/oa_gen7.yaml).
mod regs {
    pub const OACONTROL: u64 = 0x2360;
    pub const OACONTROL_RESET: u32 = 0x0;
    /// Every bit of OACONTROL is a described RW field.
    pub const OACONTROL_KEEP_MASK: u32 = 0xffff_ffff;
    pub const OACONTROL_TIMER_PERIOD_SHIFT: u32 = 6;
    pub const OACONTROL_TIMER_PERIOD_MASK: u32 = 0x3f << 6;
    pub const OACONTROL_TIMER_ENABLE_SHIFT: u32 = 5;
    pub const OACONTROL_TIMER_ENABLE: u32 = 1 << 5;
    pub const OACONTROL_COUNTER_SELECT_SHIFT: u32 = 2;
    pub const OACONTROL_COUNTER_SELECT_MASK: u32 = 0x7 << 2;
    pub const OACONTROL_COUNTER_ENABLE: u32 = 1 << 0;

    pub const OASTATUS1: u64 = 0x2364;
    pub const OASTATUS1_RESET: u32 = 0x0;
    /// Bits written back by a read-modify-write: every field of OASTATUS1 on
    /// HSW is RW or RW-V (the status bits 2:0 are cleared by writing 0).
    pub const OASTATUS1_KEEP_MASK: u32 = 0xffff_ffff;
    pub const OASTATUS1_TAIL_SHIFT: u32 = 6;
    pub const OASTATUS1_TAIL_MASK: u32 = 0xffff_ffc0;
    pub const OASTATUS1_BUFFER_SIZE_SHIFT: u32 = 3;
    pub const OASTATUS1_BUFFER_SIZE_MASK: u32 = 0x7 << 3;

    pub const OASTATUS2: u64 = 0x2368;
    /// Reset 0x1: memory_select (bit 0, RO) reads 1 = GGTT, and a write
    /// carries it, as drivers do.
    pub const OASTATUS2_RESET: u32 = 0x1;
    /// Bits written back / carried from reset: all but bit 5 (MBZ).
    pub const OASTATUS2_KEEP_MASK: u32 = 0xffff_ffdf;
    pub const OASTATUS2_HEAD_SHIFT: u32 = 6;
    pub const OASTATUS2_HEAD_MASK: u32 = 0xffff_ffc0;

    pub const OABUFFER: u64 = 0x23b0;
    pub const OABUFFER_RESET: u32 = 0x0;
    /// Bits written back / carried from reset: all but bit 2 (undescribed on
    /// HSW) and bit 5 (MBZ).
    pub const OABUFFER_KEEP_MASK: u32 = 0xffff_ffdb;
    pub const OABUFFER_OFFSET_SHIFT: u32 = 6;
    pub const OABUFFER_OFFSET_MASK: u32 = 0xffff_ffc0;
    pub const OABUFFER_DISABLE_OVERRUN_SHIFT: u32 = 3;
}

/// The register space: a fixed-size word array, so the bounds checks of
/// constant addresses fold away (see the module docs). Out-of-range or
/// unaligned addresses read 0 and drop writes, as with `SliceBus`.
#[derive(Debug)]
pub struct ArrayBus<'a>(&'a mut [u32; WORDS]);

impl Bus<Mmio> for ArrayBus<'_> {
    #[inline]
    fn read32(&mut self, addr: u64) -> u32 {
        if addr % 4 != 0 {
            return 0;
        }
        usize::try_from(addr / 4)
            .ok()
            .and_then(|i| self.0.get(i))
            .copied()
            .unwrap_or(0)
    }
    #[inline]
    fn write32(&mut self, addr: u64, value: u32) {
        if addr % 4 != 0 {
            return;
        }
        if let Some(w) = usize::try_from(addr / 4)
            .ok()
            .and_then(|i| self.0.get_mut(i))
        {
            *w = value;
        }
    }
}

/// Raw 32-bit MMIO read through the `Bus<Mmio>` trait.
#[inline(always)]
fn read32<B: Bus<Mmio>>(bus: &mut B, addr: u64) -> u32 {
    Bus::<Mmio>::read32(bus, addr)
}

/// Raw 32-bit MMIO write through the `Bus<Mmio>` trait.
#[inline(always)]
fn write32<B: Bus<Mmio>>(bus: &mut B, addr: u64, value: u32) {
    Bus::<Mmio>::write32(bus, addr, value)
}

/// The simulated register space with non-trivial contents in the OA registers.
fn seeded() -> [u32; WORDS] {
    let mut mem = [0u32; WORDS];
    // timer_period 0x29, timer_enable 1, counter_select 5, context id 0x12345.
    mem[(regs::OACONTROL / 4) as usize] = 0x1234_5a76;
    // tail pointer, buffer_size 5, all three status bits set.
    mem[(regs::OASTATUS1 / 4) as usize] = 0xabcd_e02f;
    mem[(regs::OASTATUS2 / 4) as usize] = 0x0000_0001;
    mem[(regs::OABUFFER / 4) as usize] = 0x0000_0000;
    mem
}

// ------------------------------------------------------------- operations

/// Inputs of the write benchmarks.
const TIMER_PERIOD: u64 = 0x15;
const COUNTER_SELECT_CODE: u32 = 5; // ReportFormatHsw::A45B8C8
/// Input of the modify benchmark (a tail pointer, in 64-byte units).
const TAIL: u64 = 0x0123_4567;

/// The write benchmark's inputs as the typed side holds them (each iteration
/// loads them through `black_box(&WRITE_TYPED)`).
struct WriteTyped {
    period: u64,
    timer: TimerEnable,
    format: ReportFormatHsw,
    enable: bool,
}

/// The same inputs as hand-written code holds them.
struct WriteRaw {
    period: u64,
    timer: bool,
    format: u32,
    enable: bool,
}

static WRITE_TYPED: WriteTyped = WriteTyped {
    period: TIMER_PERIOD,
    timer: TimerEnable::Enable,
    format: ReportFormatHsw::A45B8C8,
    enable: true,
};

static WRITE_RAW: WriteRaw = WriteRaw {
    period: TIMER_PERIOD,
    timer: true,
    format: COUNTER_SELECT_CODE,
    enable: true,
};

#[inline(always)]
fn read_fields_typed<B: Bus<Mmio>>(
    gpu: &mut Io<'_, Hsw, B>,
) -> (Bits<6>, TimerEnable, ReportFormatHsw) {
    let ctl = gpu.read(hsw::OACONTROL, &gpu.assume_awake::<hsw::domains::Render>());
    (ctl.timer_period(), ctl.timer_enable(), ctl.counter_select())
}

#[inline(always)]
fn read_fields_raw<B: Bus<Mmio>>(bus: &mut B) -> (u32, u32, u32) {
    use regs::*;
    let ctl = read32(bus, OACONTROL);
    (
        (ctl & OACONTROL_TIMER_PERIOD_MASK) >> OACONTROL_TIMER_PERIOD_SHIFT,
        (ctl & OACONTROL_TIMER_ENABLE) >> OACONTROL_TIMER_ENABLE_SHIFT,
        (ctl & OACONTROL_COUNTER_SELECT_MASK) >> OACONTROL_COUNTER_SELECT_SHIFT,
    )
}

#[inline(always)]
fn write_fields_typed(
    gpu: &mut Typed<'_, '_>,
    period: u64,
    timer: TimerEnable,
    format: ReportFormatHsw,
    enable: bool,
) {
    gpu.write(
        hsw::OACONTROL,
        &gpu.assume_awake::<hsw::domains::Render>(),
        |w| {
            w.timer_period(Bits::<6>::truncate(period))
                .timer_enable(timer)
                .counter_select(format)
                .counter_enable(enable)
        },
    );
}

#[inline(always)]
fn write_fields_raw(bus: &mut ArrayBus<'_>, period: u64, timer: bool, format: u32, enable: bool) {
    use regs::*;
    let value = (OACONTROL_RESET & OACONTROL_KEEP_MASK)
        | (((period as u32) << OACONTROL_TIMER_PERIOD_SHIFT) & OACONTROL_TIMER_PERIOD_MASK)
        | ((timer as u32) << OACONTROL_TIMER_ENABLE_SHIFT)
        | ((format << OACONTROL_COUNTER_SELECT_SHIFT) & OACONTROL_COUNTER_SELECT_MASK)
        | (enable as u32);
    write32(bus, OACONTROL, value);
}

#[inline(always)]
fn modify_tail_typed(gpu: &mut Typed<'_, '_>, tail: u64) {
    gpu.modify(
        hsw::OASTATUS1,
        &gpu.assume_awake::<hsw::domains::Render>(),
        |_, w| w.tail_pointer(Bits::<26>::truncate(tail)),
    );
}

#[inline(always)]
fn modify_tail_raw(bus: &mut ArrayBus<'_>, tail: u64) {
    use regs::*;
    let old = read32(bus, OASTATUS1) & OASTATUS1_KEEP_MASK;
    let value = (old & !OASTATUS1_TAIL_MASK)
        | (((tail as u32) << OASTATUS1_TAIL_SHIFT) & OASTATUS1_TAIL_MASK);
    write32(bus, OASTATUS1, value);
}

/// Rounds of the OA programming loop.
const ROUNDS: u64 = 1000;

/// OA buffer configuration, typed.
#[derive(Clone, Copy)]
struct OaConfig {
    buffer_gtt: u64,
    no_overrun: bool,
    size: BufferSizeHsw,
    timer: TimerEnable,
    format: ReportFormatHsw,
}

/// The same configuration as hand-written code would hold it.
#[derive(Clone, Copy)]
struct RawOaConfig {
    buffer_gtt: u64,
    no_overrun: bool,
    size: u32,
    timer: bool,
    format: u32,
}

const OA_CONFIG: OaConfig = OaConfig {
    buffer_gtt: 0x0300_0000,
    no_overrun: true,
    size: BufferSizeHsw::Size16m,
    timer: TimerEnable::Enable,
    format: ReportFormatHsw::A45B8C8,
};

const RAW_OA_CONFIG: RawOaConfig = RawOaConfig {
    buffer_gtt: 0x0300_0000,
    no_overrun: true,
    size: 7,
    timer: true,
    format: 5,
};

#[inline(always)]
fn oa_program_typed(gpu: &mut Typed<'_, '_>, cfg: OaConfig) -> u64 {
    let OaConfig {
        buffer_gtt,
        no_overrun,
        size,
        timer,
        format,
    } = cfg;
    let base = Bits::<26>::truncate(buffer_gtt >> 6);
    let mut acc = 0u64;
    for i in 0..ROUNDS {
        let ptr = Bits::<26>::truncate((buffer_gtt >> 6).wrapping_add(i));
        gpu.write(
            hsw::OASTATUS2,
            &gpu.assume_awake::<hsw::domains::Render>(),
            |w| w.head_pointer(ptr),
        );
        gpu.write(
            hsw::OABUFFER,
            &gpu.assume_awake::<hsw::domains::Render>(),
            |w| {
                w.report_buffer_offset(base)
                    .disable_overrun_mode(no_overrun)
            },
        );
        gpu.write(
            hsw::OASTATUS1,
            &gpu.assume_awake::<hsw::domains::Render>(),
            |w| w.tail_pointer(ptr).buffer_size(size),
        );
        gpu.write(
            hsw::OACONTROL,
            &gpu.assume_awake::<hsw::domains::Render>(),
            |w| {
                w.timer_period(Bits::<6>::truncate(i))
                    .timer_enable(timer)
                    .counter_select(format)
                    .counter_enable(true)
            },
        );
        // Make the writes land and the reads below really load.
        let gpu = black_box(&mut *gpu);
        let status = gpu.read(hsw::OASTATUS1, &gpu.assume_awake::<hsw::domains::Render>());
        let ctl = gpu.read(hsw::OACONTROL, &gpu.assume_awake::<hsw::domains::Render>());
        acc = acc
            .wrapping_mul(31)
            .wrapping_add(status.tail_pointer().get())
            .wrapping_add(ctl.timer_period().get())
            ^ u64::from(ctl.counter_enable());
    }
    acc
}

#[inline(always)]
fn oa_program_raw(bus: &mut ArrayBus<'_>, cfg: RawOaConfig) -> u64 {
    let RawOaConfig {
        buffer_gtt,
        no_overrun,
        size,
        timer,
        format,
    } = cfg;
    use regs::*;
    let base = (buffer_gtt >> 6) as u32;
    let mut acc = 0u64;
    for i in 0..ROUNDS {
        let ptr = ((buffer_gtt >> 6).wrapping_add(i)) as u32;
        write32(
            bus,
            OASTATUS2,
            (OASTATUS2_RESET & OASTATUS2_KEEP_MASK)
                | ((ptr << OASTATUS2_HEAD_SHIFT) & OASTATUS2_HEAD_MASK),
        );
        write32(
            bus,
            OABUFFER,
            (OABUFFER_RESET & OABUFFER_KEEP_MASK)
                | ((base << OABUFFER_OFFSET_SHIFT) & OABUFFER_OFFSET_MASK)
                | ((no_overrun as u32) << OABUFFER_DISABLE_OVERRUN_SHIFT),
        );
        write32(
            bus,
            OASTATUS1,
            (OASTATUS1_RESET & OASTATUS1_KEEP_MASK)
                | ((ptr << OASTATUS1_TAIL_SHIFT) & OASTATUS1_TAIL_MASK)
                | ((size << OASTATUS1_BUFFER_SIZE_SHIFT) & OASTATUS1_BUFFER_SIZE_MASK),
        );
        write32(
            bus,
            OACONTROL,
            (OACONTROL_RESET & OACONTROL_KEEP_MASK)
                | (((i as u32) << OACONTROL_TIMER_PERIOD_SHIFT) & OACONTROL_TIMER_PERIOD_MASK)
                | ((timer as u32) << OACONTROL_TIMER_ENABLE_SHIFT)
                | ((format << OACONTROL_COUNTER_SELECT_SHIFT) & OACONTROL_COUNTER_SELECT_MASK)
                | OACONTROL_COUNTER_ENABLE,
        );
        // Make the writes land and the reads below really load.
        let bus = black_box(&mut *bus);
        let status = read32(bus, OASTATUS1);
        let ctl = read32(bus, OACONTROL);
        acc = acc
            .wrapping_mul(31)
            .wrapping_add(u64::from(
                (status & OASTATUS1_TAIL_MASK) >> OASTATUS1_TAIL_SHIFT,
            ))
            .wrapping_add(u64::from(
                (ctl & OACONTROL_TIMER_PERIOD_MASK) >> OACONTROL_TIMER_PERIOD_SHIFT,
            ))
            ^ u64::from(ctl & OACONTROL_COUNTER_ENABLE);
    }
    acc
}

// ------------------------------------------------------------- benchmarks

mod read_fields {
    use super::*;

    // Each field is black-boxed on its own: black-boxing the tuple would copy
    // it through the stack in a way that depends on its layout (12 bytes raw,
    // 16 typed) and can stall store forwarding on one side only.

    #[divan::bench]
    fn typed(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Gpu::new(ArrayBus(&mut mem));
        let mut gpu = dev.io();
        bencher.bench_local(|| {
            let (period, timer, format) = read_fields_typed(&mut **black_box(&mut gpu));
            black_box(period);
            black_box(timer);
            black_box(format);
        });
    }

    /// Through `Device::read` (one bus borrow check per access), for comparison.
    #[divan::bench]
    fn typed_device(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Gpu::new(ArrayBus(&mut mem));
        let rw = dev.assume_awake::<hsw::domains::Render>();
        bencher.bench_local(|| {
            let ctl = black_box(&dev).read(hsw::OACONTROL, &rw);
            black_box(ctl.timer_period());
            black_box(ctl.timer_enable());
            black_box(ctl.counter_select());
        });
    }

    #[divan::bench]
    fn raw(bencher: Bencher) {
        let mut mem = seeded();
        // The same handle as the typed side: the bus borrowed once out of a cell.
        let cell = core::cell::RefCell::new(ArrayBus(&mut mem));
        let mut bus = cell.borrow_mut();
        bencher.bench_local(|| {
            let (period, timer, format) = read_fields_raw(&mut **black_box(&mut bus));
            black_box(period);
            black_box(timer);
            black_box(format);
        });
    }
}

/// `read_fields` over a `SliceBus`, whose accesses can fail (an address past
/// the slice reads 0; `RawMmio` reads all ones): with such a bus the typed
/// read once decoded counter_select through a jump table (a `match` that
/// LLVM folded over the array bus but not here), so a bus with a failure
/// path stays measured. One field read per iteration has few branches, and
/// this pair did not move with code placement.
mod read_fields_slice_bus {
    use super::*;

    #[divan::bench]
    fn typed(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Device::<Hsw, _>::new(SliceBus::new(&mut mem));
        let mut gpu = dev.io();
        bencher.bench_local(|| {
            let (period, timer, format) = read_fields_typed(&mut **black_box(&mut gpu));
            black_box(period);
            black_box(timer);
            black_box(format);
        });
    }

    #[divan::bench]
    fn raw(bencher: Bencher) {
        let mut mem = seeded();
        let cell = core::cell::RefCell::new(SliceBus::new(&mut mem));
        let mut bus = cell.borrow_mut();
        bencher.bench_local(|| {
            let (period, timer, format) = read_fields_raw(&mut **black_box(&mut bus));
            black_box(period);
            black_box(timer);
            black_box(format);
        });
    }
}

mod write_fields {
    use super::*;

    #[divan::bench]
    fn typed(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Gpu::new(ArrayBus(&mut mem));
        let mut gpu = dev.io();
        bencher.bench_local(|| {
            let inputs = black_box(&WRITE_TYPED);
            write_fields_typed(
                &mut *black_box(&mut gpu),
                inputs.period,
                inputs.timer,
                inputs.format,
                inputs.enable,
            );
            black_box(&mut gpu);
        });
    }

    #[divan::bench]
    fn raw(bencher: Bencher) {
        let mut mem = seeded();
        // The same handle as the typed side: the bus borrowed once out of a cell.
        let cell = core::cell::RefCell::new(ArrayBus(&mut mem));
        let mut bus = cell.borrow_mut();
        bencher.bench_local(|| {
            let inputs = black_box(&WRITE_RAW);
            write_fields_raw(
                &mut *black_box(&mut bus),
                inputs.period,
                inputs.timer,
                inputs.format,
                inputs.enable,
            );
            black_box(&mut bus);
        });
    }
}

mod modify_tail {
    use super::*;

    #[divan::bench]
    fn typed(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Gpu::new(ArrayBus(&mut mem));
        let mut gpu = dev.io();
        bencher.bench_local(|| {
            modify_tail_typed(&mut *black_box(&mut gpu), black_box(TAIL));
            black_box(&mut gpu);
        });
    }

    #[divan::bench]
    fn raw(bencher: Bencher) {
        let mut mem = seeded();
        // The same handle as the typed side: the bus borrowed once out of a cell.
        let cell = core::cell::RefCell::new(ArrayBus(&mut mem));
        let mut bus = cell.borrow_mut();
        bencher.bench_local(|| {
            modify_tail_raw(&mut *black_box(&mut bus), black_box(TAIL));
            black_box(&mut bus);
        });
    }
}

mod oa_program_x1000 {
    use super::*;

    #[divan::bench]
    fn typed(bencher: Bencher) {
        let mut mem = seeded();
        let dev = Gpu::new(ArrayBus(&mut mem));
        let mut gpu = dev.io();
        bencher.bench_local(|| {
            black_box(oa_program_typed(
                &mut *black_box(&mut gpu),
                *black_box(&OA_CONFIG),
            ))
        });
    }

    #[divan::bench]
    fn raw(bencher: Bencher) {
        let mut mem = seeded();
        // The same handle as the typed side: the bus borrowed once out of a cell.
        let cell = core::cell::RefCell::new(ArrayBus(&mut mem));
        let mut bus = cell.borrow_mut();
        bencher.bench_local(|| {
            black_box(oa_program_raw(
                &mut *black_box(&mut bus),
                *black_box(&RAW_OA_CONFIG),
            ))
        });
    }
}

// ------------------------------------------------------------- sanity check

/// A register's hand-written address, reset value and keep mask are the HAL's.
fn same_constants<R: Register>(address: u64, reset: u32, keep_mask: u32) {
    assert_eq!(
        (address, u64::from(reset), u64::from(keep_mask)),
        (R::ADDRESS, R::RESET, R::KEEP_MASK),
        "{}: address, reset, keep mask",
        core::any::type_name::<R>()
    );
}

/// Run every pair once on fresh buses: same results, same memory.
fn sanity_check() {
    // The hand-written constants agree with the HAL's.
    same_constants::<hsw::OACONTROL>(
        regs::OACONTROL,
        regs::OACONTROL_RESET,
        regs::OACONTROL_KEEP_MASK,
    );
    same_constants::<hsw::OASTATUS1>(
        regs::OASTATUS1,
        regs::OASTATUS1_RESET,
        regs::OASTATUS1_KEEP_MASK,
    );
    same_constants::<hsw::OASTATUS2>(
        regs::OASTATUS2,
        regs::OASTATUS2_RESET,
        regs::OASTATUS2_KEEP_MASK,
    );
    same_constants::<hsw::OABUFFER>(
        regs::OABUFFER,
        regs::OABUFFER_RESET,
        regs::OABUFFER_KEEP_MASK,
    );
    assert_eq!(
        u64::from(COUNTER_SELECT_CODE),
        ReportFormatHsw::A45B8C8.bits()
    );
    assert_eq!(u64::from(RAW_OA_CONFIG.size), OA_CONFIG.size.bits());
    assert_eq!(u64::from(RAW_OA_CONFIG.format), OA_CONFIG.format.bits());
    assert_eq!(RAW_OA_CONFIG.timer, OA_CONFIG.timer == TimerEnable::Enable);

    // read_fields
    let (mut typed_mem, mut raw_mem) = (seeded(), seeded());
    let (tp, te, cs) = read_fields_typed(&mut Gpu::new(ArrayBus(&mut typed_mem)).io());
    let raw = read_fields_raw(&mut ArrayBus(&mut raw_mem));
    assert_eq!(
        (tp.get(), te.bits(), cs.bits()),
        (u64::from(raw.0), u64::from(raw.1), u64::from(raw.2))
    );
    assert_eq!((raw.0, raw.1, raw.2), (0x29, 1, 5));
    assert_eq!(typed_mem, raw_mem, "read_fields");

    // read_fields_slice_bus
    let (mut typed_mem, mut raw_mem) = (seeded(), seeded());
    let typed = read_fields_typed(&mut Device::<Hsw, _>::new(SliceBus::new(&mut typed_mem)).io());
    let raw = read_fields_raw(&mut SliceBus::new(&mut raw_mem));
    assert_eq!(
        (typed.0.get(), typed.1.bits(), typed.2.bits()),
        (0x29, 1, 5)
    );
    assert_eq!((raw.0, raw.1, raw.2), (0x29, 1, 5));
    assert_eq!(typed_mem, raw_mem, "read_fields_slice_bus");

    // write_fields
    let (mut typed_mem, mut raw_mem) = (seeded(), seeded());
    write_fields_typed(
        &mut Gpu::new(ArrayBus(&mut typed_mem)).io(),
        TIMER_PERIOD,
        TimerEnable::Enable,
        ReportFormatHsw::A45B8C8,
        true,
    );
    write_fields_raw(
        &mut ArrayBus(&mut raw_mem),
        TIMER_PERIOD,
        true,
        COUNTER_SELECT_CODE,
        true,
    );
    assert_eq!(typed_mem, raw_mem, "write_fields");
    assert_eq!(typed_mem[(regs::OACONTROL / 4) as usize], 0x0000_0575);

    // modify_tail
    let (mut typed_mem, mut raw_mem) = (seeded(), seeded());
    modify_tail_typed(&mut Gpu::new(ArrayBus(&mut typed_mem)).io(), TAIL);
    modify_tail_raw(&mut ArrayBus(&mut raw_mem), TAIL);
    assert_eq!(typed_mem, raw_mem, "modify_tail");
    assert_eq!(
        typed_mem[(regs::OASTATUS1 / 4) as usize],
        ((TAIL as u32) << 6) | 0x2f
    );

    // oa_program_x1000
    let (mut typed_mem, mut raw_mem) = (seeded(), seeded());
    let typed_acc = oa_program_typed(&mut Gpu::new(ArrayBus(&mut typed_mem)).io(), OA_CONFIG);
    let raw_acc = oa_program_raw(&mut ArrayBus(&mut raw_mem), RAW_OA_CONFIG);
    assert_eq!(typed_acc, raw_acc, "oa_program_x1000 checksum");
    assert_eq!(typed_mem, raw_mem, "oa_program_x1000");
}

fn main() {
    sanity_check();
    divan::main();
}
