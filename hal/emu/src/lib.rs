//! perfregs-emu: the emulated register file of one project (every register
//! with its access rules, force-wake, multicast steering, an access trace and
//! a warning list), and the units behind it (the OA unit, the Pentium 4 and
//! R2PCIe/UBox counters). It runs the perfregs HAL ([`hal`]) as hardware
//! would: registers and fields come from the runtime metadata
//! ([`hal::meta`]), and what each unit uses from bindings generated at build
//! time ([`bind`]).
//!
//! ```
//! use perfregs_emu::{Emulator, OaUnit, Outcome, Sku};
//! use hal::{hsw, Bus, Mmio, Register};
//!
//! let oacontrol = <hsw::OACONTROL as Register>::ADDRESS;
//! let request = <hsw::FORCEWAKE_MT as Register>::ADDRESS;
//! let mut emu = Emulator::builder(&hsw::PROJECT, Sku::default())
//!     .without::<OaUnit>() // the register file alone
//!     .build();
//!
//! assert_eq!(emu.read32(oacontrol), 0); // render is asleep: terminated
//! assert_eq!(emu.trace()[0].outcome, Outcome::Terminated);
//! emu.write32(request, 0x0001_0001); // masked enable of the kernel request
//! emu.advance(Sku::DEFAULT_WAKE_LATENCY);
//! assert!(emu.awake::<hsw::domains::Render>());
//! emu.write32(oacontrol, 0x335);
//! assert_eq!(emu.read32(oacontrol), 0x335);
//! assert_eq!(emu.trace()[2].to_string(), "t=3 write 0x2360 OACONTROL = 0x335 [render] ok");
//! ```
//!
//! # Model
//!
//! - **Address space.** Every register of the project sits at its
//!   [`RegisterInfo::address`] in one address space, whatever its
//!   [`space`](RegisterInfo::space): PCI and MSR projects are emulated the
//!   same way as MMIO ones (an MSR index is used as the address). The
//!   emulator implements [`Bus`] for [`Mmio`], [`Msr`] and [`Pci`] alike;
//!   the inherent [`Emulator::read32`] & co. avoid naming the space. A 64-bit
//!   register is two dwords: its address holds bits 31:0, address + 4 bits
//!   63:32, unless another register has that address (consecutive 64-bit
//!   MSRs): a register's own address always wins, and [`Emulator::read64`] /
//!   [`Emulator::write64`] at a 64-bit register's address reach its high
//!   dword directly (still as two dword accesses, traced at address and
//!   address + 4). When two registers share an address, the first listed
//!   wins. Only exact addresses decode: address + 1 of a register is
//!   unclaimed.
//! - **Storage and access rules** (per field [`AccessKind`], masks computed
//!   once): RW, RW-V, RW-DB and WO bits take the written value; RO, RO-V and
//!   PBC keep theirs; a written 1 clears an RW1C bit and sets an RW1S bit;
//!   writes leave RC bits alone; MBZ, RSVD and bits no field describes are
//!   always 0 (after reset, writes and pokes). Reads return 0 for WO bits
//!   and clear the RC bits of the dword read. A masked register stores bits
//!   15:0 only: bits 31:16 of a write enable the matching low bits, and reads
//!   return the low 16 bits. A register without fields therefore reads 0.
//! - **Decode.** An address where no register decodes reads 0 and drops
//!   writes ([`Outcome::Unclaimed`]), unless its force-wake table row names a
//!   sleeping domain ([`Outcome::Terminated`]). An aligned dword inside an
//!   opaque range ([`ProjectInfo::opaque`], or extra ones given to
//!   [`Builder::opaque`]) is plain 32-bit storage instead (reset
//!   0, every bit kept, traced under the range's name), terminated while the
//!   range's wake domain sleeps.
//! - **Force-wake.** For each [`DomainInfo`] with a request and an ack
//!   register: the ack takes the request's bits 15:0 [`Sku::wake_latency`]
//!   ticks of [`Emulator::advance`] after the request changed (set and
//!   release alike; a `vdboxN`/`veboxN` missing from the SKU never acks). The
//!   domain is awake while request bits 15:0 and the ack are both non-zero.
//!   `always_on` domains, domains without a request or ack register, and
//!   domain names no [`DomainInfo`] describes are always awake. An access to
//!   a register whose [`RegisterInfo::domain`] sleeps is terminated: the read
//!   returns 0, the write is dropped, the trace records it. A register with
//!   `domain: None` (such as a request register) is always accessible; an
//!   address with no register takes its [`MapRow::wake`].
//! - **Steering.** A register with [`RegisterInfo::replication`] `(group, n)`
//!   keeps `n` values (at most 64). The project's steering register
//!   ([`ProjectInfo::steering`], fields `multicast`, `slice_id`,
//!   `subslice_id`), or the group's own selector (the media GT's), picks
//!   the instance `slice_id * per_group + subslice_id`, `per_group` the
//!   group's instances per group id (12.55+: 4 for DSS) or else
//!   `2^width(subslice_id)` (TGL has one slice: the instance is the
//!   subslice id, and a non-zero slice id names no instance; Gen8..Gen10
//!   have four subslice slots per slice). A selector with a semaphore
//!   (12.70+: STEER_SEMAPHORE) warns
//!   ([`WarningKind::SteeredWithoutSemaphore`]) of a steered access while
//!   the CPU does not hold it: a read of the semaphore that returns 1 takes
//!   it (it then reads 0), a write of 1 gives it back. Reads always come from that instance; writes go to
//!   every present instance when `multicast` is 1, else to that instance
//!   only. A selector without a `multicast` field (Gen8..Gen10's
//!   GEN8_MCR_SELECTOR) sends every write to every present instance. An instance that is fused off or does not
//!   exist reads 0 and drops writes ([`Outcome::FusedOff`]). Presence comes
//!   from the [`Sku`]: group `dss` from `dss_enable`, `l3bank` from
//!   `!l3bank_disable`, any other group fully present. Each group's fuse
//!   mirror register ([`GroupInfo::fuse`]) is set at construction to what
//!   the SKU says (bits beyond the group's instance count 0; poking it later
//!   does not change presence). Registers that are not replicated ignore
//!   steering.
//! - **Time** moves only in [`Emulator::advance`] (and [`Bus::pause`],
//!   which a driver calls between two polls: one tick); the same calls give
//!   the same trace.
//!
//! # OA unit (on by default for GPU projects)
//!
//! [`Emulator::new`] turns on a model of the OA unit and the CEC B counters
//! (PRM 000 for SNB..HSW, 001 for BDW, 003 for TGL's OAG unit) on every
//! project whose bindings have an OA unit; [`UnitMut::disable`] (`emu.unit_mut::<OaUnit>().disable()`) turns it
//! off, so the register file behaves exactly as described above (only
//! force-wake acks change with time). [`UnitMut::enable`] /
//! [`Builder::with`] set its configuration. The registers, fields,
//! table cells and buffer sizes it uses come from the generated bindings
//! ([`bind`], from `bindings.yaml`, checked against the descriptions at
//! build time): nothing is looked up by name at run time, and a project
//! without an OA unit (IVT, P4) has none.
//!
//! ```
//! use perfregs_emu::{Emulator, OaConfig, OaUnit, Sku, Workload};
//! use hal::hsw;
//!
//! let p = &hsw::PROJECT;
//! let mut emu = Emulator::builder(p, Sku::default())
//!     .with::<OaUnit>(OaConfig::default())
//!     .build();
//! emu.write32(p.register("FORCEWAKE_MT").unwrap().address, 0x0001_0001);
//! emu.advance(Sku::DEFAULT_WAKE_LATENCY);
//! // A register value from named fields, positions from the metadata.
//! let set = |emu: &mut Emulator, reg: &str, fields: &[(&str, u64)]| {
//!     let r = p.register(reg).unwrap();
//!     let v = fields.iter().fold(0, |v, &(n, x)| {
//!         let f = r.field(n).unwrap();
//!         v | (x << f.lsb) & f.mask()
//!     });
//!     emu.write32(r.address, v as u32);
//! };
//! let base = 0x0100_0000u64; // 128 KiB buffer (size code 0)
//! set(&mut emu, "OASTATUS2", &[("head_pointer", base >> 6)]);
//! set(&mut emu, "OABUFFER", &[("report_buffer_offset", base >> 6)]);
//! set(&mut emu, "OASTATUS1", &[("tail_pointer", base >> 6)]);
//! emu.unit_mut::<OaUnit>().set_workload(Workload::new().rate(0, 5));
//! set(&mut emu, "OACONTROL", &[
//!     ("counter_enable", 1),
//!     ("counter_select", 5), // A45_B8_C8, 256 bytes
//!     ("timer_enable", 1),
//!     ("timer_period", 3), // every 16 ticks, at ticks 8 + 16k
//! ]);
//! emu.advance(100); // ticks 4..=103: reports at 8, 24, 40, 56, 72, 88
//! assert_eq!(emu.unit::<OaUnit>().stats().unwrap().timer_reports, 6);
//! let format = emu.unit::<OaUnit>().format().unwrap();
//! let report = emu.gpu_mem().read(base, format.size);
//! assert_eq!(format.counter("TIME_STAMP").unwrap().read(&report), Some(8));
//! assert_eq!(format.counter("A0").unwrap().read(&report), Some(5 * (8 - 3)));
//! ```
//!
//! - **Graphics memory.** A sparse GGTT byte store ([`Emulator::gpu_mem`],
//!   [`GpuMem::read_into`], [`GpuMem::write`]; available
//!   with the model off too): 64 KiB chunks allocated on first write, zeros
//!   where unwritten, 4 GiB; bytes at or above 4 GiB are dropped (warning
//!   [`OaWarningKind::OutsideGgtt`] for reports). PPGTT is not modelled.
//! - **Clocks.** One tick is one TIME_STAMP tick. A 64-bit GPU clock
//!   advances [`OaConfig::gpu_clocks_per_tick`] (default 8) per tick,
//!   always (PRM 001: GPU_TICKS is free-running). Reports carry TIME_STAMP
//!   in their slot's width (64 bits on HSW, where drivers read the low
//!   dword; 32 bits on BDW/TGL) and GPU_TICKS (low 32 bits).
//! - **Counters.** A: as many as the project's layouts carry (HSW A0..A44,
//!   32-bit; BDW/TGL A0..A31 40-bit and A32..A35 32-bit: each counter is as
//!   wide as its widest layout slot), fed by a scripted [`Workload`]
//!   (events per tick, [`OaUnit`'s `set_workload`](crate::UnitMut::set_workload)). B0..B7 (32-bit) from
//!   the CEC logic, one evaluation per GPU clock (see [`NoaSource`] for
//!   the compare semantics, the NOA source, the Boolean stage and the bulk
//!   evaluation; "NOA mux" below for what feeds the Boolean stage). C: no
//!   documented event source, so zero, except C2 on projects whose layouts
//!   have no GPU_TICKS (SNB..HSW), which carries the GPU clock (HSW tools
//!   such as IGT's HSW metric sets read the GPU clock from C2). Counting happens
//!   while the OA counter enable is set (`counter_enable` of
//!   `OACONTROL` / `OAG_OACONTROL`) and, when `specific_context_enable` is
//!   set (HSW, BDW; TGL's OAG has none), the active context
//!   ([`OaUnit`'s `set_context`](crate::UnitMut::set_context)) matches the selected one: HSW compares
//!   `OACONTROL.select_context_id` (bits 31:12) with the same bits of the
//!   context id (drivers program the context's address there); BDW
//!   compares `OACTXID` with all 32 bits. No context: no counting. A
//!   counter that wraps (2^32, or 2^40 for the 40-bit A counters) sets the
//!   counter-overflow status bit (the HSW B-counter overflow erratum is not
//!   modelled). Counter registers (`OAPERF_An`, `OAPERF_An_UPPER`,
//!   `OAPERF_Bn`, `GPU_TICKS`, where the project has them) show the
//!   counters after every step; writing or poking them loads the counter.
//!   The `counter_stop_resume` bits are not modelled (counting does not
//!   need them).
//! - **Timer.** With the timer enabled (HSW `OACONTROL.timer_enable`, BDW
//!   `OACTXCONTROL`, TGL `OAG_OAGLBCTXCTRL`) and the counter enable set,
//!   the period is 2^(p+1) ticks (2^(p+4) on SNB), p the `timer_period`
//!   field. A report is written on each rising edge of the selected
//!   TIME_STAMP bit (bit p on IVB..TGL): at ticks `P/2 + k*P`. This phase
//!   follows PRM 000 ("determined by selecting a specified bit from the
//!   TIME_STAMP register"; the strobe is not synchronised with the enable)
//!   and what IGT observed on HSW (timer reports have TIME_STAMP bits p..0
//!   equal to 1 followed by zeros); the number of reports per period is the
//!   same as firing at multiples of P.
//! - **Reports** use the layout of [`ProjectInfo::formats`] whose `select`
//!   equals the format field (HSW `counter_select`, BDW `counter_select`,
//!   TGL `report_format`); a code without a layout writes nothing
//!   ([`OaWarningKind::NoLayout`], once per code). Slots are resolved once
//!   per format change, and the counters are then kept where that layout's
//!   reports hold them, so a report is one copy of the counter block plus
//!   the header fields, rendered on the stack and copied into memory.
//!   Slots: RPT_ID; TIME_STAMP; CTX_ID (the active context, 0 when none);
//!   GPU_TICKS; An, Bn, Cn (40-bit counters as a low dword plus the high byte
//!   at `high_byte_offset`); anything else (`INST_ADD`) 0. RPT_ID of timer and
//!   context-switch reports on BDW/TGL comes from the `rpt_id_report_reasons`
//!   table (timer: bit 19; context switch: bit 22) and the `rpt_id_fields`
//!   table: BDW sets `render_context_valid` (bit 25) when a context is active
//!   and `timer_enabled` (bit 16) when the timer is on; TGL's table has no
//!   context-valid row and calls bit 16 "Timer Enabled", while Linux i915
//!   reads bit 16 as context valid on Gen12: the model follows i915
//!   (bit 16 = context valid on TGL, no separate timer-enabled bit).
//!   Projects without those tables (SNB..HSW) write
//!   [`OaConfig::legacy_timer_rpt_id`] in timer reports. Source ID, start
//!   trigger and threshold bits are 0.
//! - **OA buffer.** Base: `OABUFFER.report_buffer_offset` (HSW) or
//!   `base_address` (BDW/TGL, plus `OABUFFER_UDW` bits 63:32 where present).
//!   Size: the encoding of `buffer_size` (HSW `OASTATUS1`, BDW/TGL
//!   `OABUFFER`) by its enumeration names (`size_128k` .. `size_16m`: 128 KiB
//!   << n; SNB/IVB 16 KiB * (n + 1)). Head (HSW `OASTATUS2.head_pointer`,
//!   BDW/TGL `OAHEADPTR`) and tail (HSW `OASTATUS1.tail_pointer`, BDW/TGL
//!   `OATAILPTR`) are 32-bit graphics addresses (bits 31:6); their offset in
//!   the buffer is `(pointer - base) mod 2^32 mod size`. Each report is
//!   written at the tail, wrapping byte-wise at the end of the buffer (a
//!   report may straddle it), and the hardware moves the tail by the
//!   report size (MI_REPORT_PERF_COUNT does not). Unread bytes are
//!   `(tail - head) mod size`, except that the whole buffer is unread
//!   ("full") after a report left tail == head or overwrote unread data,
//!   until software changes the head, tail, base or size. A report that
//!   does not fit (unread + size > buffer size) is, by default, written
//!   anyway (overwriting unread reports; the buffer stays full, so every
//!   later report overwrites too) and sets the buffer-overflow status bit;
//!   with HSW
//!   `OABUFFER.disable_overrun_mode` set it is not written, sets no status
//!   bit but `OABUFFER.overrun_status`, and reporting resumes by itself at
//!   the first timer event after software has moved the head to make room
//!   (which clears `overrun_status`). The YAML reads `overrun_status` as
//!   the state of the mode (the PRM cell is garbled); the model uses it as
//!   "reporting stopped", which is what drivers rely on. BDW/TGL have no
//!   disable-overrun mode; BDW `OASTATUS.overrun_status` is never set. A
//!   BDW/TGL buffer with `memory_select` 0 (PPGTT, the reset value) takes
//!   reports nowhere visible (the tail still moves; warning once).
//! - **Report lost.** Reports are written within the tick they are
//!   requested; a second request in the same tick (MI_REPORT_PERF_COUNT or
//!   a context switch at the tick of a timer report, ...) is dropped and
//!   sets the report-lost status bit. Status bits are the registers' own
//!   RW-V bits: hardware sets them, software clears them by writing 0.
//! - **Programming order.** The PRM asks for the head pointer register
//!   (HSW `OASTATUS2`), then the OA buffer register, then the tail pointer
//!   register (HSW `OASTATUS1`) "to enable proper functionality of the
//!   overflow bit". The model tracks software writes (not pokes): writing
//!   the buffer register starts a programming sequence that is in order
//!   when a head write came before it (since the last complete sequence)
//!   and no tail write came between that head write and it; the next tail
//!   write completes it. Until a sequence completes in order, overflow
//!   detection is off: reports are written (overwriting) without setting
//!   buffer-overflow, even in disable-overrun mode. Head writes alone
//!   (consuming reports) and tail-register writes alone (clearing HSW
//!   status bits) do not disturb an in-order state. Each violation is
//!   recorded in [`OaUnit`'s `warnings`](crate::UnitRef::warnings) (a report written while the tail
//!   write is missing is recorded once); the access trace keeps one entry
//!   per access, so warnings are not trace entries.
//! - **Context switches.** [`OaUnit`'s `set_context`](crate::UnitMut::set_context) /
//!   [`OaUnit`'s `clear_context`](crate::UnitMut::clear_context) change the active context. On projects
//!   with a context-switch report reason (BDW, TGL; PRM 001/003 "Context
//!   Switch Triggered Reports") and with the counter enable set and
//!   `OA_DEBUG.disable_ctx_switch_reports` clear, a change writes a report
//!   into the OA buffer at the current tick, carrying the new context's id
//!   (the context being loaded).
//! - **MI_REPORT_PERF_COUNT** ([`OaUnit`'s `mi_report_perf_count`](crate::UnitMut::mi_report_perf_count)): one
//!   report of the current format at the given address (bits 5:0 ignored),
//!   RPT_ID = the command's report id (the whole dword: "RPT_ID is always
//!   stored in the lowest addressed DWORD"), counters as they are (enabled
//!   or not); the tail does not move; PPGTT writes nothing visible.
//!   [`OaUnit`'s `execute_mi_rpc`](crate::UnitMut::execute_mi_rpc) takes the
//!   command's dwords instead, decoded with the project's description of
//!   the command (`regdefs/oa_commands.yaml`, bound in `bindings.yaml`):
//!   dwords that are not the command (opcode, command type, length) are an
//!   error and an [`OaWarningKind::BadCommand`] warning.
//! - **Cost.** Counting is in bulk between events (A: rate x ticks; B: see
//!   [`NoaSource`]). When an advance spans more timer reports than the
//!   buffer holds in overwrite mode, the reports whose bytes later reports
//!   of the same advance overwrite are only accounted for (tail, status,
//!   statistics), not rendered; in disable-overrun mode a full buffer ends
//!   the report work of the advance. So an advance costs O(reports that
//!   fit in the buffer) plus, only for B counters reading pseudo-random or
//!   long-period NOA bits, O(GPU clocks).
//!
//! - **Several OA units** (12.70+): one OA model per unit of the
//!   catalogue's `oa.units` (render unit first: MTL OAG + OAM; LNL/PTL
//!   OAG + SAG + SCMI_0; BMG also SCMI_1), each from its own bindings
//!   (`oa`, `oam`, `scmi0`, `scmi1` with their `*_cec` in `bindings.yaml`):
//!   its own control, timer, status, head, tail, buffer, triggers, CEC/B
//!   counters, MMIO trigger and formats. Reach unit `n` with
//!   [`Emulator::unit_nth`] / [`Emulator::unit_nth_mut`] (the render unit
//!   is [`Emulator::unit`]); [`UnitRef::info`] names it. A unit writes the
//!   layouts whose Xe format type its `format_types` binding lists (OAG:
//!   OAG and PEC; media units: OAM and OAM_MPEC), with the format field's
//!   code and, where the unit has a counter-size field (12.55+), the
//!   counter size of the layout's Xe tuple (Xe2 PEC64u64: select 1, size
//!   1). 64-bit headers (TIME_STAMP u64 at 8, CTX_ID at 16, GPU_TICKS u64
//!   at 24) come from the layouts. The media units' CEC registers are bound
//!   whole (no source gives their fields) and read with the render unit's
//!   CEC layout (IGT's TestOam programs TestOa's values); their Boolean
//!   stage (routed through VISACTL on MTL) is not modelled, so a CEC
//!   reading it counts nothing (warned). The NOA mux routes the render
//!   unit only; on DG2 and MTL its table keeps one list per GT.
//! - **PEC counters** (Xe2/Xe3): 64 counters of 64 bits; PEC i < 32 is
//!   selected by PES dword pair i (0x13000), PEC i >= 32 by pair i - 32 at
//!   0x13300 (the other two identical blocks are stored only). TEST_EVENT1
//!   (event 0x3E00) of one XeCore adds one per GPU clock when that XeCore
//!   is present ([`Sku::xecore_enable`], the part's dual-subslice mask),
//!   else nothing; of all XeCores, the number present per clock (IGT
//!   `pec_sanity_check`). A select of 0 counts nothing; any other event
//!   counts nothing and is warned about once per value
//!   ([`OaWarningKind::PecEventUnknown`]). MPEC counters (media formats)
//!   count nothing: MPES semantics are not public, and a non-zero MPES is
//!   warned about once per value ([`OaWarningKind::MpesNotModelled`]).
//! - **MMIO-triggered reports** (12.55+, `OAG_MMIOTRIGGER`, `*_MMIO_TRG`):
//!   a bus write writes a report into the unit's buffer at once: RPT_ID 0
//!   (reason 0, context-valid 0), the written value in the context-id
//!   field; nothing while the debug register's `disable_mmio_trg` is set
//!   or the counters are disabled. A trigger in a tick that already has a
//!   report cannot be written: the model's queue holds none, so it sets
//!   `mmio_trg_q_full` (not report-lost). The queue depth is not public.
//! - **Buffer sizes** 128 KiB .. 16 MiB by the size field, and with the
//!   debug register's `buf_size_select` the field counts from 1 MiB (32 to
//!   128 MiB; [`UnitMut::start_periodic`] sets it for those sizes). On
//!   Xe2/Xe3 OAG (`whole_report_wrap`) the ring wraps at the largest
//!   multiple of the report size (16 MiB of 576-byte reports: 16,777,152
//!   bytes), as xe's overrun mode reads it.
//!
//! Not covered by the OA model (PRMs 000/001/003): start/report trigger
//! logic (OASTARTTRIG/OAREPORTTRIG, report reasons 1-2, start-trigger and
//! threshold RPT_ID bits; the registers are stored, and programming that
//! would gate counting or write reports is reported, see "NOA mux"), GO 1->0 and clock-ratio reports (`OA_DEBUG`
//! bits other than 1), the OA interrupt (buffer
//! half full), C-counter events, NOA signal selection (OASTARTTRIG3/4
//! selects) and CEC considerations, the Boolean stage beyond the test
//! signals and select 3 of CECn-0 (reported, never made up), the TGL SCEC
//! registers (stored, not evaluated) and their negate array, OAR (render) units and per-context OAR counters,
//! flexible EU counters, the HSW head/tail wrap flags and BDW
//! `OASTATUS` wrap bits, `counter_stop_resume`, RC6 and clock gating
//! effects, the "Core Mode Enable" offset of MI_REPORT_PERF_COUNT, the SNB
//! programming workarounds, and the report-lost rule beyond "two reports in
//! one tick".
//!
//! # NOA mux (BDW, TGL)
//!
//! The NOA multiplexers route hardware signals to the OA unit; software
//! programs them through a write port (Linux i915 `NOA_WRITE`, with
//! `NOA_WRITE_HIGH` on TGL) whose encoding is not public. The emulator
//! (bindings of the `noa` unit) keeps the mux state: every bus write to the
//! port (pokes are not mux writes), keyed by the `NOA_WRITE_HIGH` value in
//! force and the write's bits 31:16, a later write under the same key
//! replacing the earlier one. Reading bits 31:16 as the mux register
//! selected is this model's guess (every shipped list writes distinct
//! keys within a configuration block); if it is wrong, a write under the
//! same key from another configuration drops the routing below (the loud
//! side), and an overwrite under another key goes unseen.
//!
//! The Boolean stage (CECn-0 select 2) carries the test signals
//! ([`NoaSource::test_signals`]) when the NOA enable bit is set (BDW
//! `GDT_CHICKEN_BITS.gt_noa_enable`, TGL `RPM_CONFIG1.gt_noa_enable`) and
//! every write of the project's `noa_test_signal_routing` table (the mux
//! writes of IGT's TestOa configuration: all of them on BDW, those GT1 and
//! GT2 share on TGL) is the latest under its key
//! ([`UnitRef::<NoaMux>::test_signals_routed`](UnitRef::test_signals_routed)). Writing the TestOa list alone
//! then gives IGT's TestOa expectations (B3 = clock/2, B4 = B5 = clock/3,
//! B6 = clock/6, B7 = 2 x clock/3). Otherwise a CEC comparison that reads
//! the Boolean stage counts nothing and the OA model records
//! [`OaWarningKind::CecInputUnknown`] once per programming; a comparison
//! that reads no input bit (always true, or every bit masked) counts as
//! it compares.
//!
//! Trigger registers (BDW `OASTARTTRIGn` / `OAREPORTTRIGn`, TGL
//! `OAG_OASTARTTRIGn` / `OAG_OAREPORTTRIGn`) are stored as described.
//! PRM 003 says a start trigger gates the B and C counters; the model
//! counts ungated and records [`OaWarningKind::TriggerNotModelled`] (once
//! per programming, checked when time next moves) for a report trigger
//! enable (`report_trigger_enable`, bit 31 of `OAREPORTTRIG2/6`) and for a
//! start trigger programmed other than at reset or as a threshold trigger
//! with threshold count 0 (met from the start, whatever the event: how
//! every shipped metric set programs it; IGT's TestOa expectations, B1 =
//! B2 = the clock delta with event select 0xF, show it does not gate).
//!
//! # CPU counters (opt-in)
//!
//! Two models, off after [`Emulator::new`], driven by [`Emulator::advance`]
//! and reading their registers from the register file at every tick (so
//! software writes and pokes take effect at the next tick). Their registers
//! and fields come from the generated bindings ([`bind`]); a project
//! without them gets a model that does nothing.
//!
//! **Pentium 4** (`emu.unit_mut::<P4Unit>().enable(events)`, PRM 002, Intel SDM Vol 3B):
//! `P4_COUNTERn` (the 40-bit `count` field) and `P4_CCCRn` (`enable`,
//! `cascade`, `ovf`, `ovf_pmi`, `force_ovf`, `compare`, `complement`,
//! `threshold`, `edge`), n = 0..17; cascade sources from the project's
//! `cascade_pairs` table. Events come from [`CpuEvents`]: `rate(n, k)` means
//! the event counter n is programmed for occurs k times per tick (events are
//! attributed per counter index; ESCRs and `escr_select` are not
//! interpreted).
//!
//! - *Order within a tick.* Counter n's k events of a tick occur in rounds
//!   0..k-1, so events of different counters are interleaved: round r of
//!   every counter comes before round r + 1 of any counter, and within a
//!   round a counter's overflow precedes other counters' events of the next
//!   round only.
//! - *Counting.* A counter counts when its CCCR has `enable` = 1, or when it
//!   has `cascade` = 1 and its cascade source (the `cascade_pairs` row whose
//!   `target` is n) has `ovf` = 1. Each counted event adds 1 to the 40-bit
//!   count, wrapping at 2^40.
//! - *Overflow.* An event that takes the count past 2^40 - 1 overflows:
//!   `ovf` is set (sticky: only software clears it, by writing 0; the
//!   hardware never sets `enable`). With `force_ovf` every counted increment
//!   overflows.
//! - *Cascading, SDM Example 18-1.* X preset -200, Y preset -400, Y with
//!   `cascade` = 1 and `enable` = 0, then X enabled: X overflows on its
//!   200th event, and Y counts every event of its own that occurs after
//!   that one: from the next round of the same tick (Y's events of rounds
//!   up to the round of X's 200th event are not counted), then every later
//!   tick. Y overflows on the 400th event it counted. Because the start is
//!   level-triggered on the source's `ovf`, clearing the target's `cascade`
//!   flag or the source's `ovf` halts the target (Intel SDM), setting
//!   `cascade` while the source's `ovf` is already set starts it at once,
//!   and a pair not in the table (16 from 12, 14 from 16, 0 from 4, ...)
//!   never starts. Chains (12 -> 14 -> 16) resolve within one tick.
//! - *PMI.* An overflow with `ovf_pmi` set makes the interrupt pending; it
//!   is raised ([`P4Unit`'s `interrupts`](crate::UnitRef::interrupts), tick and counter) at the next
//!   event the counter counts (SDM: "on the next event after the
//!   overflow"): in the same tick when the overflow was not its last event
//!   of the tick, else in the first later tick in which it counts. At most
//!   one interrupt per counter per tick; `ovf_pmi_t1` is ignored; the list
//!   keeps [`CPU_INTERRUPT_CAP`] entries, then counts
//!   ([`P4Unit`'s `interrupts_dropped`](crate::UnitRef::interrupts_dropped)).
//! - *Threshold.* With `compare` = 1 a counter adds at most 1 per tick: when
//!   its event count of the tick (the events it could count: from its start
//!   round for a counter started in that tick) is > `threshold`
//!   (`complement` = 0) or <= `threshold` (`complement` = 1); with `edge`
//!   also set, only when that comparison is true and was false in the
//!   previous tick (the comparison is evaluated every tick, counting or
//!   not). `edge` without `compare` is ignored.
//! - *Cost.* Ticks in which nothing but counts changes are added in bulk up
//!   to the next overflow; ticks with overflows (FORCE_OVF) are stepped one
//!   by one.
//!
//! **R2PCIe and UBox** (`emu.unit_mut::<UncoreUnit>().enable(cfg)`, [`UnitMut::<UncoreUnit>::set_events`](UnitMut::set_events); PRM 004,
//! the Xeon E5 v2 uncore manual): `R2_PCI_PMON_CTLn` (`en`, `ov_en`, `edge_det`,
//! `thresh`, `rst`), `R2_PCI_PMON_CTRn` (44-bit `count`), n = 0..3,
//! `R2_PCI_PMON_BOX_CTL` (`frz`, `rst_ctrs`, `rst_ctrl`),
//! `R2_PCI_PMON_BOX_STATUS.ov`, `U_MSR_PMON_GLOBAL_CTL` (`frz_all`,
//! `unfrz_all`), `U_MSR_PMON_GLOBAL_STATUS.ov_rp`. One tick is one uncore
//! cycle; [`UncoreEvents`] gives each counter's raw event count per cycle
//! ([`EventPattern`]: a constant, or a repeating sequence whose element 0
//! is used in the first tick after the events were set).
//!
//! - *Counting.* A counter counts while `en` = 1, the box's `frz` = 0 and
//!   the UBox is not frozen. It adds the raw count when `thresh` = 0;
//!   otherwise 1 in each cycle with raw >= `thresh`, or with `edge_det` 1
//!   only at 0 -> 1 transitions of (raw >= `thresh`) (the previous value is
//!   kept per counter while it counts; `edge_det` with `thresh` = 0 is
//!   ignored, the PRM requires a non-zero threshold).
//! - *Overflow* (carry out of bit 43; the count wraps): sets
//!   `BOX_STATUS.ov` bit n (always, with or without `ov_en`); with `ov_en`
//!   also `U_MSR_PMON_GLOBAL_STATUS.ov_rp`, and a global freeze is
//!   scheduled [`UncoreConfig::freeze_delay`] cycles later (default 10): the
//!   counters keep counting (and wrap) in exactly those cycles, and the
//!   freeze takes effect at the end of the cycle `overflow + delay`
//!   ([`UncoreUnit`'s `freeze_at`](crate::UnitRef::freeze_at), [`UncoreUnit`'s `frozen`](crate::UnitRef::frozen)). A
//!   freeze already scheduled or in effect is not rescheduled. Both status
//!   bits are RW1C in the register file (software writes 1 to clear).
//! - *Commands* (write-only bits, acted on when written or poked, then
//!   cleared in storage): `CTLn.rst` clears counter n; `BOX_CTL.rst_ctrs`
//!   clears the four counters, `rst_ctrl` the four controls; `frz_all`
//!   freezes at once, `unfrz_all` unfreezes and cancels a scheduled freeze
//!   (`frz_all` wins when both are written).
//! - *Reading.* The counters are the 64-bit registers of the register file:
//!   PCI dword reads return the low dword at the address and the high
//!   dword at address + 4 (two reads are not atomic, as on hardware).
//! - *Cost.* Cycles with constant patterns and no overflow are added in
//!   bulk; repeating sequences are stepped cycle by cycle.
//!
//! Not covered: ESCR event selection, tagging, OS/USR and thread
//! filtering (no privilege levels or threads), Hyper-Threading
//! (`active_thread`, `ovf_pmi_t1`), the IQ extended-cascade bit, the CCCR1
//! enable erratum, PEBS; PMI delivery through the APIC (interrupts are
//! only recorded); R2PCIe event selection (`ev_sel`/`umask`), the UBox
//! PMI (`wk_on_pmi`, core select), `U_MSR_PMON_GLOBAL_CONFIG`, the other
//! uncore boxes, and a latency for the `ov_rp` message.
//!
//! # Not modelled
//!
//! Engines and interrupts; with the OA model off, counters, OA buffers,
//! report generation and CEC/NOA signals (later models drive registers
//! through [`Emulator::poke`]);
//! RW-V/RO-V bits change only when poked (or by the OA model); PBC is treated as RO; RW-DB takes
//! effect at once (no double buffering); the GuC and command-streamer
//! steering registers are ordinary registers (only the CPU one steers);
//! slices other than 0; the hardware mirroring of L3 fuse bits 3:0 into 7:4
//! (the mirror reads what the SKU says); driver force-wake timeouts and the
//! fallback requester's special role (bit 15 is just another request bit);
//! force-wake reference counting by the hardware; per-space address
//! separation (a PCI and an MSR register at the same number collide);
//! sub-dword and unaligned MMIO accesses (they decode only where a register
//! sits at that exact address).
//!
//! [`AccessKind`]: hal::meta::AccessKind
//! [`RegisterInfo::address`]: hal::meta::RegisterInfo::address
//! [`RegisterInfo::domain`]: hal::meta::RegisterInfo::domain
//! [`RegisterInfo::replication`]: hal::meta::RegisterInfo::replication
//! [`RegisterInfo`]: hal::meta::RegisterInfo
//! [`DomainInfo`]: hal::meta::DomainInfo
//! [`GroupInfo::fuse`]: hal::meta::GroupInfo::fuse
//! [`MapRow::wake`]: hal::meta::MapRow::wake
//! [`ProjectInfo::steering`]: hal::meta::ProjectInfo::steering
//! [`ProjectInfo::formats`]: hal::meta::ProjectInfo::formats
//! [`ProjectInfo::opaque`]: hal::meta::ProjectInfo::opaque

#![warn(missing_docs)]

use core::fmt;
use std::boxed::Box;
use std::vec::Vec;

use hal::bus::{Bus, Mmio, Msr, Pci};
use hal::meta::{OpaqueRange, ProjectInfo, RegisterInfo};

pub mod bind;
mod cec;
mod forcewake;
mod gpumem;
mod index;
mod noa;
mod oa;
mod p4;
mod r2pcie;
mod regfile;
mod sku;
mod steering;
#[doc(hidden)]
pub mod test_support;
mod trace;
mod unit;
mod warn;

pub use bind::SlotKind;
pub use cec::{CecUnknown, NoaBit, NoaSource, TEST_SIGNAL_BITS};
pub use gpumem::GpuMem;
pub use noa::NoaMux;
pub use oa::{
    KernelField, OaConfig, OaStats, OaUnit, OaWarning, OaWarningKind, ReportOutcome, StartError,
    StreamFields, Workload,
};
pub use p4::{CpuEvents, CpuInterrupt, P4Unit, CPU_INTERRUPT_CAP, P4_COUNTERS};
pub use r2pcie::{EventPattern, UncoreConfig, UncoreEvents, UncoreUnit, R2_COUNTERS};
pub use sku::Sku;
pub use trace::{AccessCounts, Outcome, TraceEntry};
pub use unit::{Unit, UnitMut, UnitRef};
pub use warn::{Warning, WarningKind, MAX_WARNINGS};

use bind::Bindings;
use index::unslot;
use regfile::{notify, RegFile};
use unit::BoxedUnit;

/// The emulated register file of one project, with its units.
///
/// Build it with [`Emulator::new`] (or [`Emulator::builder`]), access it
/// through [`Bus`] (or the inherent [`read32`](Emulator::read32) & co.),
/// move time with [`advance`](Emulator::advance), look at what happened
/// with [`trace`](Emulator::trace), and reach a unit by its type with
/// [`unit`](Emulator::unit) / [`unit_mut`](Emulator::unit_mut). No sequence
/// of calls panics. See the [module documentation](self) for the model.
/// Cloning snapshots the whole state (registers, time, pending acks,
/// trace, units).
#[derive(Clone)]
pub struct Emulator {
    /// Registers, power, steering, memory, time, trace.
    rf: RegFile,
    /// The units that are on, each reached through the register file
    /// handle it is given.
    units: Vec<BoxedUnit>,
}

impl fmt::Debug for Emulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Emulator")
            .field("project", &self.rf.project.name)
            .field("sku", &self.rf.sku)
            .field("now", &self.rf.now)
            .field("registers", &self.rf.regs.len())
            .field("tracing", &self.rf.tracing)
            .field("trace_len", &self.rf.trace.len())
            .field("units", &self.units.len())
            .field("gpu_mem", &self.rf.mem)
            .finish_non_exhaustive()
    }
}

/// A register description [`Builder::registers`] takes: `&'static
/// RegisterInfo` (the items of a generated `REGISTERS` table, which is also
/// its `PROJECT.registers`) or a reference to one (the items of a list of
/// your own).
pub trait ExtraRegister {
    /// The description.
    fn info(self) -> &'static RegisterInfo;
}

impl ExtraRegister for &'static RegisterInfo {
    fn info(self) -> &'static RegisterInfo {
        self
    }
}

impl ExtraRegister for &&'static RegisterInfo {
    fn info(self) -> &'static RegisterInfo {
        self
    }
}

/// A step [`Builder::build`] runs on the new emulator.
type Step = Box<dyn FnOnce(&mut Emulator)>;

/// How to build an [`Emulator`] other than [`Emulator::new`]: extra
/// registers and opaque ranges, explicit bindings, units on or off.
///
/// ```
/// use perfregs_emu::{CpuEvents, Emulator, OaUnit, P4Unit, Sku};
/// use hal::hsw;
///
/// let emu = Emulator::builder(&hsw::PROJECT, Sku::default())
///     .without::<OaUnit>()
///     .with::<P4Unit>(CpuEvents::new())
///     .build();
/// assert!(!emu.unit::<OaUnit>().is_on());
/// assert!(emu.unit::<P4Unit>().is_on());
/// ```
pub struct Builder {
    bindings: Bindings,
    sku: Sku,
    registers: Vec<&'static RegisterInfo>,
    ranges: Vec<OpaqueRange>,
    steps: Vec<Step>,
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("project", &self.bindings.project.name)
            .field("sku", &self.sku)
            .field("registers", &self.registers.len())
            .field("ranges", &self.ranges)
            .field("steps", &self.steps.len())
            .finish()
    }
}

impl Builder {
    /// More registers in the emulated project: descriptions of your own (a
    /// `regdefs!` module's `REGISTERS` table or `PROJECT.registers`, or
    /// registers built at run time). They decode, keep their values and
    /// follow their access rules like the built-in ones; a register at an
    /// address the project already has is shadowed by the built-in one
    /// (the first listed wins).
    ///
    /// ```
    /// use hal::{hsw, p4};
    /// use perfregs_emu::{Emulator, Sku};
    ///
    /// // A generated module's `REGISTERS` table (as a `regdefs!` module has
    /// // it) or its `PROJECT.registers`: the same table.
    /// for emu in [
    ///     Emulator::builder(&hsw::PROJECT, Sku::default()).registers(&p4::REGISTERS).build(),
    ///     Emulator::builder(&hsw::PROJECT, Sku::default()).registers(p4::PROJECT.registers).build(),
    /// ] {
    ///     let r = &p4::REGISTERS[0];
    ///     assert_eq!(emu.register_at(r.address).map(|x| x.name), Some(r.name));
    /// }
    /// ```
    pub fn registers<T>(mut self, table: T) -> Self
    where
        T: IntoIterator,
        T::Item: ExtraRegister,
    {
        self.registers
            .extend(table.into_iter().map(ExtraRegister::info));
        self
    }

    /// More opaque ranges (a `regdefs!` module's `PROJECT.opaque`):
    /// aligned dword accesses inside an opaque range of the project or of
    /// `ranges` read and write plain storage (reset 0, every bit kept)
    /// instead of ending unclaimed, under the range's wake domain. A range
    /// overlapping an earlier one (the project's come first) is ignored; a
    /// register at an address inside a range wins over the range.
    pub fn opaque(mut self, ranges: &[OpaqueRange]) -> Self {
        self.ranges.extend_from_slice(ranges);
        self
    }

    /// Explicit bindings (a hand-built project's force-wake handshakes,
    /// steering or units); the emulated project becomes
    /// `bindings.project`.
    pub fn bindings(mut self, bindings: Bindings) -> Self {
        self.bindings = bindings;
        self
    }

    /// Turn unit `U` on with `cfg` (see [`UnitMut::enable`]).
    pub fn with<U: Unit>(mut self, cfg: U::Config) -> Self
    where
        U::Config: 'static,
    {
        self.steps
            .push(Box::new(move |emu| emu.unit_mut::<U>().enable(cfg)));
        self
    }

    /// Turn unit `U` off (see [`UnitMut::disable`]).
    pub fn without<U: Unit>(mut self) -> Self {
        self.steps
            .push(Box::new(|emu| emu.unit_mut::<U>().disable()));
        self
    }

    /// The emulator at reset. The units the bindings have are on: the OA
    /// unit (with [`OaConfig::default`]) and the NOA mux (which only
    /// follows its registers); then the [`with`](Builder::with) and
    /// [`without`](Builder::without) steps, in order.
    pub fn build(self) -> Emulator {
        let b = self.bindings;
        let rf = RegFile::new(b, &self.registers, &self.ranges, self.sku);
        let mut emu = Emulator {
            rf,
            units: Vec::new(),
        };
        // The OA unit first: found first by `unit_mut::<OaUnit>()` (its
        // report rendering is benchmarked) and told first of a store.
        if b.oa.is_some() {
            emu.unit_mut::<OaUnit>().enable(OaConfig::default());
        }
        if b.noa.is_some() {
            emu.unit_mut::<NoaMux>().enable(());
        }
        for step in self.steps {
            step(&mut emu);
        }
        emu
    }
}

impl Emulator {
    /// The register file of `project` at reset, with the units its
    /// generated [`Bindings`] give it: a GPU project gets its OA model on
    /// (with [`OaConfig::default`]); the CPU counter models stay off until
    /// enabled ([`Emulator::unit_mut`]). A project the generator did not
    /// see (a hand-built [`ProjectInfo`]) gets no units, force-wake or
    /// steering: use [`Builder::bindings`] to give it some.
    pub fn new(project: &'static ProjectInfo, sku: Sku) -> Self {
        Self::builder(project, sku).build()
    }

    /// A [`Builder`] for `project` (extra registers and opaque ranges,
    /// explicit bindings, units on or off).
    pub fn builder(project: &'static ProjectInfo, sku: Sku) -> Builder {
        Builder {
            bindings: Bindings::of(project)
                .copied()
                .unwrap_or(Bindings::empty(project)),
            sku,
            registers: Vec::new(),
            ranges: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// Unit `U`, to look at (answers as documented with each unit when `U`
    /// is off). Where the hardware has several instances (the OA units of
    /// a GPU with a media GT), the first: the render unit.
    pub fn unit<U: Unit>(&self) -> UnitRef<'_, U> {
        self.unit_nth::<U>(0)
    }

    /// Unit `U`, to act on, or to turn on or off (the first instance, as
    /// [`Emulator::unit`]).
    pub fn unit_mut<U: Unit>(&mut self) -> UnitMut<'_, U> {
        UnitMut::new(self, 0)
    }

    /// Instance `n` of unit `U`, to look at: the OA units in the order of
    /// the catalogue's `oa.units` (`hal::meta::OaInfo::units`, the render
    /// unit first; [`UnitRef::<OaUnit>::info`](UnitRef::info) names each).
    /// An instance the project does not have answers as a unit that is off.
    pub fn unit_nth<U: Unit>(&self, n: usize) -> UnitRef<'_, U> {
        UnitRef {
            unit: self.find_nth::<U>(n),
            rf: &self.rf,
        }
    }

    /// Instance `n` of unit `U`, to act on (see [`Emulator::unit_nth`]).
    pub fn unit_nth_mut<U: Unit>(&mut self, n: usize) -> UnitMut<'_, U> {
        UnitMut::new(self, n)
    }

    /// How many instances of unit `U` are on.
    pub fn unit_count<U: Unit>(&self) -> usize {
        self.units.iter().filter(|u| u.as_any().is::<U>()).count()
    }

    /// Instance `n` of unit `U` when on.
    pub(crate) fn find_nth<U: Unit>(&self, n: usize) -> Option<&U> {
        self.units
            .iter()
            .filter_map(|u| u.as_any().downcast_ref::<U>())
            .nth(n)
    }

    /// Instance `n` of unit `U` when on, and the register file.
    pub(crate) fn parts_nth<U: Unit>(&mut self, n: usize) -> (Option<&mut U>, &mut RegFile) {
        let u = self
            .units
            .iter_mut()
            .filter_map(|u| u.as_any_mut().downcast_mut::<U>())
            .nth(n);
        (u, &mut self.rf)
    }

    /// Recompute the fast path after the list of units changed.
    pub(crate) fn rebuild_hot(&mut self) {
        let mut watched = Vec::new();
        let b = self.rf.bindings;
        for u in &self.units {
            u.watches(&b, &mut watched);
        }
        self.rf.rebuild_hot(&watched);
    }

    /// The emulated project.
    pub fn project(&self) -> &'static ProjectInfo {
        self.rf.project
    }

    /// The emulated SKU.
    pub fn sku(&self) -> &Sku {
        &self.rf.sku
    }

    /// Current time in ticks (starts at 0).
    pub fn now(&self) -> u64 {
        self.rf.now
    }

    /// Move time forward by `ticks` (saturating): force-wake acks that are
    /// due by the new time follow their requests, then every unit that is
    /// on runs for those ticks (the OA unit: counters, timer reports,
    /// status bits; see "OA unit" in the module documentation). Nothing
    /// else changes with time, and nothing changes without it.
    pub fn advance(&mut self, ticks: u64) {
        let from = self.rf.now;
        self.rf.advance_time(ticks);
        let to = self.rf.now;
        for u in &mut self.units {
            u.advance(&mut self.rf, from, to);
        }
    }

    /// Turn tracing on or off (on after [`Emulator::new`]). Off, accesses
    /// are still counted ([`Emulator::counts`]) but not recorded.
    pub fn set_tracing(&mut self, on: bool) {
        self.rf.set_tracing(on);
    }

    /// The accesses recorded so far, oldest first (each displays as one
    /// line).
    pub fn trace(&self) -> &[TraceEntry] {
        &self.rf.trace
    }

    /// Take the recorded accesses, leaving the trace empty.
    pub fn take_trace(&mut self) -> Vec<TraceEntry> {
        core::mem::take(&mut self.rf.trace)
    }

    /// Everything the emulated hardware did wrong without telling, oldest
    /// first: accesses to sleeping domains, to addresses where no register
    /// decodes and to fused-off instances, and the units' complaints (the
    /// OA model's PPGTT reports, programming order, formats without a
    /// layout). At most [`MAX_WARNINGS`] register-file warnings are kept
    /// (see [`AccessCounts::warnings_dropped`]), plus the units' own.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut all = self.rf.warnings.clone();
        for u in &self.units {
            u.warnings(&mut all);
        }
        all.sort_by_key(|w| w.time);
        all
    }

    /// Take the warnings (see [`Emulator::warnings`]), leaving none.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        let mut all = core::mem::take(&mut self.rf.warnings);
        for u in &mut self.units {
            u.take_warnings(&mut all);
        }
        all.sort_by_key(|w| w.time);
        all
    }

    /// Print every warning to stderr, one line each with a `warning:`
    /// prefix; returns how many there were. The examples end with this.
    pub fn print_warnings(&self) -> usize {
        let all = self.warnings();
        for w in &all {
            std::eprintln!("warning: {w}");
        }
        if self.rf.warnings_dropped > 0 {
            std::eprintln!("warning: {} more not kept", self.rf.warnings_dropped);
        }
        all.len()
    }

    /// Whether power domain `D` lets accesses through now: request bits
    /// 15:0 and the ack both non-zero. A domain the emulator has no
    /// handshake for (not this project's, or its request register is not
    /// bound) is reported asleep.
    pub fn awake<D: hal::power::Wakeable>(&self) -> bool {
        self.rf
            .bindings
            .wake
            .iter()
            .find(|w| w.request == D::REQUEST && w.ack == D::ACK)
            .is_some_and(|w| self.domain_awake(w.domain))
    }

    /// Whether the domain at index `domain` of the project's `domains`
    /// lets accesses through now (always-on domains and domains without a
    /// handshake: true; an index past the list: false). For projects
    /// without domain types ([`Emulator::awake`] takes the type).
    pub fn domain_awake(&self, domain: usize) -> bool {
        self.rf.awake.get(domain).copied().unwrap_or(false)
    }

    /// How many dword accesses ended how, traced or not, and how many
    /// register-file warnings were not kept.
    pub fn counts(&self) -> AccessCounts {
        AccessCounts {
            accesses: self.rf.total,
            terminated: self.rf.outcome_count(Outcome::Terminated),
            unclaimed: self.rf.outcome_count(Outcome::Unclaimed),
            fused_off: self.rf.outcome_count(Outcome::FusedOff),
            warnings_dropped: self.rf.warnings_dropped,
        }
    }

    /// The register at `addr` (its own address or, for a 64-bit register,
    /// address + 4), as decoded by the index.
    pub fn register_at(&self, addr: u64) -> Option<&'static RegisterInfo> {
        let (ri, _) = unslot(self.rf.index.slot_at(addr))?;
        self.rf.regs.get(ri).map(|r| r.info)
    }

    /// The wake domain of the force-wake table row holding `addr`, from the
    /// direct index: the same answer as
    /// `project.row_at(addr).and_then(|r| r.wake)` (a binary search), for
    /// sorted, disjoint rows, without searching.
    #[inline]
    pub fn row_domain_of(&self, addr: u64) -> Option<&'static str> {
        self.rf.target_name(self.rf.index.row_target(addr))
    }

    /// Backdoor read, without side effects or trace: the stored value of
    /// instance `instance` of the register whose address is `addr` (all its
    /// bits, WO bits included; instance 0 for a register that is not
    /// replicated). `None` when no register has this address (address + 4
    /// of a 64-bit register included) or it has no such instance.
    pub fn peek(&self, addr: u64, instance: u32) -> Option<u64> {
        let (_, reg) = self.rf.own_register(addr)?;
        if instance >= reg.instances {
            return None;
        }
        self.rf.values.get(reg.base + instance as usize).copied()
    }

    /// Backdoor read of the dword at `addr` inside an opaque range (0 until
    /// written; what a register at that address holds is not looked at);
    /// `None` when `addr` is not an aligned dword of one.
    pub fn peek_opaque(&self, addr: u64) -> Option<u32> {
        self.rf.peek_opaque(addr)
    }

    /// The opaque ranges the emulator stores (the project's and extra ones),
    /// by ascending start.
    pub fn opaque_ranges(&self) -> impl Iterator<Item = &OpaqueRange> {
        self.rf.opaque.iter().map(|(r, _)| r)
    }

    /// Backdoor (hardware-side) update: store `value` in the register at
    /// `addr` (every instance of a replicated register), bypassing access
    /// rules, power and steering. Bits that cannot hold a value (MBZ, RSVD,
    /// undescribed, beyond the width) stay 0. A force-wake request poked
    /// schedules its ack like a write; units see the store. Not traced.
    /// Returns false when no register has this address.
    pub fn poke(&mut self, addr: u64, value: u64) -> bool {
        let Some(ri) = self.rf.poke(addr, None, value) else {
            return false;
        };
        notify(&mut self.units, &mut self.rf, ri, false);
        true
    }

    /// [`Emulator::poke`] of one instance; false when there is no such
    /// register or instance.
    pub fn poke_instance(&mut self, addr: u64, instance: u32, value: u64) -> bool {
        let Some(ri) = self.rf.poke(addr, Some(instance), value) else {
            return false;
        };
        notify(&mut self.units, &mut self.rf, ri, false);
        true
    }

    /// Read the dword at `addr` (as [`Bus::read32`]).
    #[inline(always)]
    pub fn read32(&mut self, addr: u64) -> u32 {
        self.rf.access_at(addr, None, &mut self.units)
    }

    /// Write the dword at `addr` (as [`Bus::write32`]).
    #[inline(always)]
    pub fn write32(&mut self, addr: u64, value: u32) {
        self.rf.access_at(addr, Some(value), &mut self.units);
    }

    /// Read 64 bits as two dword accesses, low dword first: at a 64-bit
    /// register's address, its two halves; elsewhere `addr` and `addr + 4`.
    pub fn read64(&mut self, addr: u64) -> u64 {
        let (lo, hi) = self.rf.pair(addr);
        let hi_addr = addr.wrapping_add(4);
        let l = self.rf.access(addr, lo, None, &mut self.units);
        let h = self.rf.access(hi_addr, hi, None, &mut self.units);
        u64::from(l) | u64::from(h) << 32
    }

    /// Write 64 bits as two dword accesses, low dword first (see
    /// [`Emulator::read64`]).
    pub fn write64(&mut self, addr: u64, value: u64) {
        let (lo, hi) = self.rf.pair(addr);
        let hi_addr = addr.wrapping_add(4);
        self.rf
            .access(addr, lo, Some(value as u32), &mut self.units);
        self.rf
            .access(hi_addr, hi, Some((value >> 32) as u32), &mut self.units);
    }

    /// Emulated graphics memory (GGTT), to read; available whether or not
    /// a unit uses it.
    pub fn gpu_mem(&self) -> &GpuMem {
        &self.rf.mem
    }

    /// Emulated graphics memory (GGTT), to write.
    pub fn gpu_mem_mut(&mut self) -> &mut GpuMem {
        &mut self.rf.mem
    }
}

macro_rules! bus_impl {
    ($($space:ty),*) => {$(
        /// The emulator's one address space, reached as this space (see the
        /// [module documentation](self)).
        impl Bus<$space> for Emulator {
            #[inline(always)]
            fn read32(&mut self, addr: u64) -> u32 {
                Emulator::read32(self, addr)
            }
            #[inline(always)]
            fn write32(&mut self, addr: u64, value: u32) {
                Emulator::write32(self, addr, value)
            }
            #[inline]
            fn read64(&mut self, addr: u64) -> u64 {
                Emulator::read64(self, addr)
            }
            #[inline]
            fn write64(&mut self, addr: u64, value: u64) {
                Emulator::write64(self, addr, value)
            }
            /// One tick of time passes (`advance(1)`), so a driver polling a
            /// force-wake ack sees it arrive.
            #[inline]
            fn pause(&mut self) {
                self.advance(1)
            }
        }
    )*};
}
bus_impl!(Mmio, Msr, Pci);
