//! perfregs-emu: the emulated register file of one project (every register
//! with its access rules, force-wake, multicast steering, an access trace and
//! a warning list), and the units behind it (the OA unit, the Pentium 4 and
//! R2PCIe/UBox counters). It runs the perfregs HAL ([`hal`]) as hardware
//! would: registers and fields come from the runtime metadata
//! ([`hal::meta`]), and what each unit uses from bindings generated at build
//! time ([`bind`]).
//!
//! ```
//! use perfregs_emu::{Emulator, Outcome, Sku};
//! use hal::{hsw, Bus, Mmio, Register};
//!
//! let oacontrol = <hsw::OACONTROL as Register>::ADDRESS;
//! let request = <hsw::FORCEWAKE_MT as Register>::ADDRESS;
//! let mut emu = Emulator::new(&hsw::PROJECT, Sku::default());
//! emu.disable_oa(); // the register file alone
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
//!   [`Emulator::with_descriptions`]) is plain 32-bit storage instead (reset
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
//!   `subslice_id`) picks the instance `slice_id << width(subslice_id) |
//!   subslice_id` (TGL has one slice: the instance is the subslice id, and a
//!   non-zero slice id names no instance). Reads always come from that
//!   instance; writes go to every present instance when `multicast` is 1,
//!   else to that instance only. An instance that is fused off or does not
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
//! project whose bindings have an OA unit; [`Emulator::disable_oa`] turns it
//! off, so the register file behaves exactly as described above (only
//! force-wake acks change with time). [`Emulator::with_oa`] /
//! [`Emulator::enable_oa`] set its configuration. The registers, fields,
//! table cells and buffer sizes it uses come from the generated bindings
//! ([`bind`], from `bindings.yaml`, checked against the descriptions at
//! build time): nothing is looked up by name at run time, and a project
//! without an OA unit (IVT, P4) has none.
//!
//! ```
//! use perfregs_emu::{Emulator, OaConfig, Sku, Workload};
//! use hal::hsw;
//!
//! let p = &hsw::PROJECT;
//! let mut emu = Emulator::with_oa(p, Sku::default(), OaConfig::default());
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
//! emu.oa_mut().set_workload(Workload::new().rate(0, 5));
//! set(&mut emu, "OACONTROL", &[
//!     ("counter_enable", 1),
//!     ("counter_select", 5), // A45_B8_C8, 256 bytes
//!     ("timer_enable", 1),
//!     ("timer_period", 3), // every 16 ticks, at ticks 8 + 16k
//! ]);
//! emu.advance(100); // ticks 4..=103: reports at 8, 24, 40, 56, 72, 88
//! assert_eq!(emu.oa().stats().unwrap().timer_reports, 6);
//! let format = emu.oa().format().unwrap();
//! let report = emu.gpu_mem(base, format.size);
//! assert_eq!(format.counter("TIME_STAMP").unwrap().read(&report), Some(8));
//! assert_eq!(format.counter("A0").unwrap().read(&report), Some(5 * (8 - 3)));
//! ```
//!
//! - **Graphics memory.** A sparse GGTT byte store ([`Emulator::gpu_mem`],
//!   [`Emulator::gpu_mem_read_into`], [`Emulator::gpu_mem_write`]; available
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
//!   (events per tick, [`OaUnit::set_workload`](crate::OaUnit::set_workload)). B0..B7 (32-bit) from
//!   the CEC logic, one evaluation per GPU clock (see [`NoaSource`] for
//!   the compare semantics, the NOA source, the Boolean stage and the bulk
//!   evaluation; "NOA mux" below for what feeds the Boolean stage). C: no
//!   documented event source, so zero, except C2 on projects whose layouts
//!   have no GPU_TICKS (SNB..HSW), which carries the GPU clock (HSW tools
//!   such as IGT's HSW metric sets read the GPU clock from C2). Counting happens
//!   while the OA counter enable is set (`counter_enable` of
//!   `OACONTROL` / `OAG_OACONTROL`) and, when `specific_context_enable` is
//!   set (HSW, BDW; TGL's OAG has none), the active context
//!   ([`OaUnit::set_context`](crate::OaUnit::set_context)) matches the selected one: HSW compares
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
//!   recorded in [`OaUnit::warnings`](crate::OaUnit::warnings) (a report written while the tail
//!   write is missing is recorded once); the access trace keeps one entry
//!   per access, so warnings are not trace entries.
//! - **Context switches.** [`OaUnit::set_context`](crate::OaUnit::set_context) /
//!   [`OaUnit::clear_context`](crate::OaUnit::clear_context) change the active context. On projects
//!   with a context-switch report reason (BDW, TGL; PRM 001/003 "Context
//!   Switch Triggered Reports") and with the counter enable set and
//!   `OA_DEBUG.disable_ctx_switch_reports` clear, a change writes a report
//!   into the OA buffer at the current tick, carrying the new context's id
//!   (the context being loaded).
//! - **MI_REPORT_PERF_COUNT** ([`OaUnit::mi_report_perf_count`](crate::OaUnit::mi_report_perf_count)): one
//!   report of the current format at the given address (bits 5:0 ignored),
//!   RPT_ID = the command's report id (the whole dword: "RPT_ID is always
//!   stored in the lowest addressed DWORD"), counters as they are (enabled
//!   or not); the tail does not move; PPGTT writes nothing visible.
//!   [`OaUnit::execute_mi_rpc`](crate::OaUnit::execute_mi_rpc) takes the
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
//! Not covered by the OA model (PRMs 000/001/003): start/report trigger
//! logic (OASTARTTRIG/OAREPORTTRIG, report reasons 1-2, start-trigger and
//! threshold RPT_ID bits; the registers are stored, and programming that
//! would gate counting or write reports is reported, see "NOA mux"), GO 1->0 and clock-ratio reports (`OA_DEBUG`
//! bits other than 1), MMIO-triggered reports, the OA interrupt (buffer
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
//! ([`Emulator::noa_test_signals_routed`]). Writing the TestOa list alone
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
//! **Pentium 4** ([`Emulator::with_p4_events`] /
//! [`Emulator::enable_p4_events`], PRM 002, Intel SDM Vol 3B):
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
//!   is raised ([`P4Unit::interrupts`](crate::P4Unit::interrupts), tick and counter) at the next
//!   event the counter counts (SDM: "on the next event after the
//!   overflow"): in the same tick when the overflow was not its last event
//!   of the tick, else in the first later tick in which it counts. At most
//!   one interrupt per counter per tick; `ovf_pmi_t1` is ignored; the list
//!   keeps [`CPU_INTERRUPT_CAP`] entries, then counts
//!   ([`P4Unit::interrupts_dropped`](crate::P4Unit::interrupts_dropped)).
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
//! **R2PCIe and UBox** ([`Emulator::with_uncore`] /
//! [`Emulator::enable_uncore`], [`UncoreUnit::set_events`](crate::UncoreUnit::set_events); PRM 004,
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
//!   ([`UncoreUnit::freeze_at`](crate::UncoreUnit::freeze_at), [`UncoreUnit::frozen`](crate::UncoreUnit::frozen)). A
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
mod trace;
mod unit;
mod units_api;
mod warn;

pub use bind::SlotKind;
pub use cec::{CecUnknown, NoaBit, NoaSource, TEST_SIGNAL_BITS};
pub use oa::{OaConfig, OaStats, OaWarning, OaWarningKind, ReportOutcome, StartError, Workload};
pub use p4::{CpuEvents, CpuInterrupt, CPU_INTERRUPT_CAP, P4_COUNTERS};
pub use r2pcie::{EventPattern, UncoreConfig, UncoreEvents, R2_COUNTERS};
pub use sku::Sku;
pub use trace::{Outcome, TraceEntry};
pub use units_api::{OaUnit, P4Unit, UncoreUnit};
pub use warn::{Warning, WarningKind, MAX_WARNINGS};

use bind::Bindings;
use forcewake::ForceWake;
use index::{slot, unslot, AddressIndex, Slot, NONE16};
use regfile::{Hot, Reg, Role};
use sku::low_bits;
use steering::Steering;
use unit::Unit;

/// The emulated register file of one project.
///
/// Build it with [`Emulator::new`], access it through [`Bus`] (or the
/// inherent [`read32`](Emulator::read32) & co.), move time with
/// [`advance`](Emulator::advance), and look at what happened with
/// [`trace`](Emulator::trace). No sequence of calls panics. See the
/// [module documentation](self) for the model. Cloning snapshots the whole
/// state (registers, time, pending acks, trace).
#[derive(Clone)]
pub struct Emulator {
    project: &'static ProjectInfo,
    /// What the units bind (generated per project).
    bindings: Bindings,
    sku: Sku,
    now: u64,
    regs: Vec<Reg>,
    /// Stored values: each register's instances from `Reg::base`.
    values: Vec<u64>,
    index: AddressIndex,
    /// Wake target names: the project's domains first (same order), then
    /// names registers or table rows use that no domain describes.
    targets: Vec<&'static str>,
    /// Per wake target: accesses pass.
    awake: Vec<bool>,
    /// Bit t set: wake target t (t < 64) sleeps (the fast path's check).
    asleep: u64,
    /// Per register: the fast path's view.
    hot: Vec<Hot>,
    /// The last plain register accessed: its address and view (drivers
    /// poll and read-modify-write one register at a time).
    last: (u64, Hot, usize),
    fw: Vec<ForceWake>,
    /// Per replication group: present instances.
    present: Vec<u64>,
    steering: Steering,
    tracing: bool,
    trace: Vec<TraceEntry>,
    /// Accesses, every outcome.
    total: usize,
    /// Register-file warnings (the OA model keeps its own).
    warnings: Vec<Warning>,
    /// Register-file warnings not kept (beyond [`MAX_WARNINGS`]).
    warnings_dropped: u64,
    /// Accesses per outcome other than `Ok` (which is `total` minus these).
    counts: [usize; 4],
    /// The OA model, when on ([`Emulator::enable_oa`]).
    oa: Option<Box<oa::Oa>>,
    /// Emulated graphics memory (GGTT).
    mem: gpumem::GpuMem,
    /// The Pentium 4 counter model, when on ([`Emulator::enable_p4_events`]).
    p4: Option<Box<p4::P4>>,
    /// The R2PCIe / UBox model, when on ([`Emulator::enable_uncore`]).
    r2: Option<Box<r2pcie::R2>>,
    /// The NOA mux model (projects whose bindings have a `noa` unit).
    mux: Option<Box<noa::Noa>>,
    /// Opaque ranges (the project's, then extra ones) with their wake
    /// target, sorted by start; overlapping later ones are dropped.
    opaque: Vec<(OpaqueRange, u16)>,
    /// Dwords written inside opaque ranges (absent: 0).
    opaque_values: std::collections::BTreeMap<u64, u32>,
}

impl fmt::Debug for Emulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Emulator")
            .field("project", &self.project.name)
            .field("sku", &self.sku)
            .field("now", &self.now)
            .field("registers", &self.regs.len())
            .field("tracing", &self.tracing)
            .field("trace_len", &self.trace.len())
            .field("oa", &self.oa.is_some())
            .field("p4", &self.p4.is_some())
            .field("uncore", &self.r2.is_some())
            .field("gpu_mem_bytes", &self.gpu_mem_allocated())
            .finish_non_exhaustive()
    }
}

impl Emulator {
    /// The register file of `project` at reset, with the units its
    /// generated [`Bindings`] give it. A GPU project gets its OA model on
    /// (with [`OaConfig::default`]; turn it off with
    /// [`Emulator::disable_oa`]); the CPU counter models stay off until
    /// enabled. A project the generator did not see (a hand-built
    /// [`ProjectInfo`]) gets no units, force-wake or steering: use
    /// [`Emulator::with_bindings`] to give it some.
    pub fn new(project: &'static ProjectInfo, sku: Sku) -> Self {
        Self::with_registers(project, sku, &[])
    }

    /// [`Emulator::new`] with more registers in the emulated project:
    /// descriptions of your own (a `regdefs!` module's register table, or
    /// registers built at run time). They decode, keep their values and
    /// follow their access rules like the built-in ones; a register at an
    /// address the project already has is shadowed by the built-in one
    /// (the first listed wins).
    pub fn with_registers(
        project: &'static ProjectInfo,
        sku: Sku,
        extra: &[&'static RegisterInfo],
    ) -> Self {
        Self::with_descriptions(project, sku, extra, &[])
    }

    /// [`Emulator::with_registers`] with more opaque ranges too (a
    /// `regdefs!` module's `PROJECT.opaque`): aligned dword accesses inside
    /// an opaque range of the project or of `ranges` read and write plain
    /// storage (reset 0, every bit kept) instead of ending unclaimed, under
    /// the range's wake domain. A range overlapping an earlier one (the
    /// project's come first) is ignored; a register at an address inside a
    /// range wins over the range.
    pub fn with_descriptions(
        project: &'static ProjectInfo,
        sku: Sku,
        registers: &[&'static RegisterInfo],
        ranges: &[OpaqueRange],
    ) -> Self {
        let bindings = Bindings::of(project)
            .copied()
            .unwrap_or(Bindings::empty(project));
        let mut emu = Self::assemble(bindings, registers, ranges, sku);
        if bindings.oa.is_some() {
            emu.enable_oa(OaConfig::default());
        }
        emu
    }

    /// The register file of `bindings.project` with explicit bindings (a
    /// hand-built project's force-wake handshakes, steering or units). No
    /// unit is turned on; the NOA mux, which only follows the registers,
    /// is there when the bindings have one (as with [`Emulator::new`]).
    pub fn with_bindings(bindings: Bindings, sku: Sku) -> Self {
        Self::assemble(bindings, &[], &[], sku)
    }

    fn assemble(
        bindings: Bindings,
        extra: &[&'static RegisterInfo],
        extra_ranges: &[OpaqueRange],
        sku: Sku,
    ) -> Self {
        let project = bindings.project;
        let infos: Vec<&'static RegisterInfo> =
            project.registers.iter().chain(extra).copied().collect();
        // Opaque ranges: the first of overlapping ones wins.
        let mut ranges: Vec<OpaqueRange> = Vec::new();
        for &r in project.opaque.iter().chain(extra_ranges) {
            if r.start <= r.end && !ranges.iter().any(|o| o.start <= r.end && r.start <= o.end) {
                ranges.push(r);
            }
        }
        ranges.sort_by_key(|r| r.start);
        // Wake targets: the project's domains first (same order), then names
        // registers or map rows use that no domain describes.
        let mut targets: Vec<&'static str> = project.domains.iter().map(|d| d.name).collect();
        let extra_targets = infos
            .iter()
            .filter_map(|r| r.domain)
            .chain(project.map.iter().filter_map(|r| r.wake))
            .chain(ranges.iter().filter_map(|r| r.domain));
        for name in extra_targets {
            if !targets.contains(&name) {
                targets.push(name);
            }
        }
        let target_id = |name: Option<&str>| -> u16 {
            name.and_then(|n| targets.iter().position(|&t| t == n))
                .and_then(|i| u16::try_from(i).ok())
                .filter(|&i| i != NONE16)
                .unwrap_or(NONE16)
        };

        // Registers and their storage.
        let mut regs = Vec::with_capacity(infos.len());
        let mut values = Vec::with_capacity(infos.len());
        for &info in &infos {
            let instances = info.replication.map_or(1, |(_, n)| n.clamp(1, 64));
            let mut reg = Reg::new(info, values.len(), instances);
            reg.target = target_id(info.domain);
            if let Some((group, _)) = info.replication {
                reg.group = project
                    .groups
                    .iter()
                    .position(|g| g.name == group)
                    .and_then(|i| u16::try_from(i).ok())
                    .unwrap_or(NONE16);
            }
            let reset = info.reset & reg.defined;
            values.extend(core::iter::repeat_n(reset, instances as usize));
            regs.push(reg);
        }

        // The address index: registers' own addresses first, then the high
        // dwords of 64-bit registers where free.
        let mut claims: Vec<(u64, Slot)> = Vec::with_capacity(regs.len() * 2);
        claims.extend(
            regs.iter()
                .enumerate()
                .map(|(i, r)| (r.info.address, slot(i, false))),
        );
        for (i, r) in regs.iter().enumerate() {
            if let (true, Some(a)) = (r.wide, r.info.address.checked_add(4)) {
                claims.push((a, slot(i, true)));
            }
        }
        claims.retain(|&(_, s)| s != 0);
        let rows: Vec<_> = project
            .map
            .iter()
            .map(|row| (row, target_id(row.wake)))
            .collect();
        let index = AddressIndex::new(&claims, &rows);
        // A bound address's own register (bindings are resolved against the
        // same descriptions, so every bound address decodes).
        let reg_at = |addr: u64| match unslot(index.slot_at(addr)) {
            Some((ri, false)) => Some(ri),
            _ => None,
        };

        // Replication groups and their fuse mirrors.
        let mut present = Vec::with_capacity(project.groups.len());
        for (gi, g) in project.groups.iter().enumerate() {
            present.push(sku.group_present(&bindings, gi) & low_bits(g.instances.min(64)));
        }
        for fuse in bindings.fuses {
            let (Some(ri), Some(&have), Some(g)) = (
                reg_at(fuse.address),
                present.get(fuse.group),
                project.groups.get(fuse.group),
            ) else {
                continue;
            };
            let Some(reg) = regs.get(ri) else { continue };
            let all = low_bits(g.instances.min(64));
            let bits = if fuse.set_means_present {
                have
            } else {
                !have & all
            };
            let fm = low_bits(fuse.width).checked_shl(fuse.lsb).unwrap_or(0);
            let fv = bits.checked_shl(fuse.lsb).unwrap_or(0) & fm;
            let n = reg.instances as usize;
            for v in values.iter_mut().skip(reg.base).take(n) {
                *v = ((*v & !fm) | fv) & reg.defined;
            }
        }

        // Force-wake domains.
        let mut awake = vec![true; targets.len()];
        let mut fw = Vec::new();
        for w in bindings.wake {
            let (Some(rq), Some(ak)) = (reg_at(w.request), reg_at(w.ack)) else {
                continue;
            };
            let Ok(t) = u16::try_from(w.domain) else {
                continue;
            };
            if rq == ak
                || regs.get(rq).is_none_or(|r| r.role != Role::Plain)
                || regs.get(ak).is_none_or(|r| r.role != Role::Plain)
            {
                continue;
            }
            let n = fw.len();
            let rv = regs.get(rq).and_then(|r| values.get(r.base)).copied();
            let av = regs.get(ak).and_then(|r| values.get(r.base)).copied();
            let (rv, av) = (rv.unwrap_or(0), av.unwrap_or(0));
            let mut f = ForceWake::new(t, rq, ak, sku.domain_present(&bindings, w.domain), rv);
            f.start(sku.wake_latency, av);
            fw.push(f);
            if let Some(r) = regs.get_mut(rq) {
                r.role = Role::Request(n);
            }
            if let Some(r) = regs.get_mut(ak) {
                r.role = Role::Ack(n);
            }
            if let Some(a) = awake.get_mut(usize::from(t)) {
                *a = rv & 0xFFFF != 0 && av != 0;
            }
        }

        // Steering.
        let steering = bindings
            .steering
            .and_then(|s| {
                let r = regs.get(reg_at(s.address)?)?;
                Some(Steering::new(&s, r.base))
            })
            .unwrap_or_default();

        let opaque: Vec<(OpaqueRange, u16)> =
            ranges.iter().map(|&r| (r, target_id(r.domain))).collect();
        let mut emu = Emulator {
            project,
            bindings,
            sku,
            now: 0,
            regs,
            values,
            index,
            targets,
            awake,
            fw,
            present,
            steering,
            tracing: true,
            trace: Vec::new(),
            total: 0,
            warnings: Vec::new(),
            warnings_dropped: 0,
            counts: [0; 4],
            asleep: 0,
            hot: Vec::new(),
            last: (u64::MAX, Hot::NONE, usize::MAX),
            oa: None,
            mem: gpumem::GpuMem::default(),
            p4: None,
            r2: None,
            mux: None,
            opaque,
            opaque_values: std::collections::BTreeMap::new(),
        };
        // The NOA mux follows the mux registers from reset, whatever else
        // is turned on (with explicit bindings too: otherwise their routing
        // writes would be ignored and select 2 reported unrouted).
        emu.mux = noa::Noa::new(&bindings, &|a| emu.reg_at(a)).map(Box::new);
        emu.rebuild_hot();
        emu
    }

    /// Recompute the fast path's view of every register and target (after
    /// construction, and when a unit starts watching registers).
    pub(crate) fn rebuild_hot(&mut self) {
        let mut watched = Vec::new();
        let b = self.bindings;
        for u in self.units() {
            u.watches(&b, &mut watched);
        }
        let watched: Vec<usize> = watched.iter().filter_map(|&a| self.reg_at(a)).collect();
        self.hot = self
            .regs
            .iter()
            .enumerate()
            .map(|(ri, r)| {
                let t = usize::from(r.target);
                let wake_bit = if r.target == NONE16 {
                    0
                } else {
                    1u64.checked_shl(t as u32).unwrap_or(0)
                };
                let plain =
                    r.is_plain() && !watched.contains(&ri) && (r.target == NONE16 || t < 64);
                Hot {
                    base: u32::try_from(r.base).unwrap_or(u32::MAX),
                    take: r.take as u32,
                    readable: r.readable as u32,
                    wake_bit,
                    plain,
                }
            })
            .collect();
        self.last = (u64::MAX, Hot::NONE, usize::MAX);
        self.asleep = 0;
        for (t, &a) in self.awake.iter().enumerate().take(64) {
            if !a {
                self.asleep |= 1 << t;
            }
        }
    }

    /// The units that are on.
    fn units(&self) -> impl Iterator<Item = &dyn Unit> {
        let oa = self.oa.as_deref().map(|u| u as &dyn Unit);
        let p4 = self.p4.as_deref().map(|u| u as &dyn Unit);
        let r2 = self.r2.as_deref().map(|u| u as &dyn Unit);
        let mux = self.mux.as_deref().map(|u| u as &dyn Unit);
        [oa, p4, r2, mux].into_iter().flatten()
    }

    /// Run `f` on every unit that is on, each taken out of the emulator
    /// while it runs (so it can use the register file).
    fn each_unit(&mut self, mut f: impl FnMut(&mut dyn Unit, &mut Emulator)) {
        if let Some(mut u) = self.oa.take() {
            f(&mut *u, self);
            self.oa = Some(u);
        }
        if let Some(mut u) = self.p4.take() {
            f(&mut *u, self);
            self.p4 = Some(u);
        }
        if let Some(mut u) = self.r2.take() {
            f(&mut *u, self);
            self.r2 = Some(u);
        }
        if let Some(mut u) = self.mux.take() {
            f(&mut *u, self);
            self.mux = Some(u);
        }
    }

    /// Register `ri`'s stored value changed (`software`: a bus write, else
    /// a poke): tell the units.
    fn stored(&mut self, ri: usize, software: bool) {
        if self.oa.is_some() || self.p4.is_some() || self.r2.is_some() || self.mux.is_some() {
            self.each_unit(|u, emu| u.written(emu, ri, software));
        }
    }

    /// Record whether wake target `t` lets accesses pass.
    fn set_awake(&mut self, t: usize, on: bool) {
        if let Some(a) = self.awake.get_mut(t) {
            *a = on;
        }
        if t < 64 {
            if on {
                self.asleep &= !(1 << t);
            } else {
                self.asleep |= 1 << t;
            }
        }
        if !on {
            self.last = (u64::MAX, Hot::NONE, usize::MAX);
        }
    }

    /// The bindings the emulator runs on.
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    /// The own register at `addr` (not the high dword of a 64-bit one).
    pub(crate) fn reg_at(&self, addr: u64) -> Option<usize> {
        match unslot(self.index.slot_at(addr))? {
            (ri, false) => Some(ri),
            (_, true) => None,
        }
    }

    /// The emulated project.
    pub fn project(&self) -> &'static ProjectInfo {
        self.project
    }

    /// The emulated SKU.
    pub fn sku(&self) -> &Sku {
        &self.sku
    }

    /// Current time in ticks (starts at 0).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Move time forward by `ticks` (saturating): force-wake acks that are
    /// due by the new time follow their requests; with the OA model on
    /// ([`Emulator::enable_oa`]), the OA unit runs for those ticks (counters,
    /// timer reports, status bits; see "OA unit" in the module
    /// documentation). Nothing else changes with time, and nothing changes
    /// without it.
    pub fn advance(&mut self, ticks: u64) {
        let from = self.now;
        self.now = self.now.saturating_add(ticks);
        for d in 0..self.fw.len() {
            let Some(f) = self.fw.get_mut(d) else { break };
            let Some(v) = f.due(self.now) else { continue };
            let ack = f.ack;
            if let Some(r) = self.regs.get(ack) {
                if let Some(slot) = self.values.get_mut(r.base) {
                    *slot = v & r.defined;
                }
            }
            self.refresh(d);
        }
        let to = self.now;
        self.each_unit(|u, emu| u.advance(emu, from, to));
    }

    /// Turn tracing on or off (on after [`Emulator::new`]). Off, accesses
    /// are still counted ([`Emulator::count`]) but not recorded.
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
        self.last = (u64::MAX, Hot::NONE, usize::MAX);
    }

    /// Whether accesses are being recorded.
    pub fn tracing(&self) -> bool {
        self.tracing
    }

    /// The accesses recorded so far, oldest first.
    pub fn trace(&self) -> &[TraceEntry] {
        &self.trace
    }

    /// Take the recorded accesses, leaving the trace empty.
    pub fn take_trace(&mut self) -> Vec<TraceEntry> {
        core::mem::take(&mut self.trace)
    }

    /// Print the recorded accesses to standard output, one
    /// [`TraceEntry`] (its `Display`) per line.
    pub fn print_trace(&self) {
        for e in &self.trace {
            std::println!("{e}");
        }
    }

    /// Everything the emulated hardware did wrong without telling, oldest
    /// first: accesses to sleeping domains, to addresses where no register
    /// decodes and to fused-off instances, and the OA model's complaints
    /// (PPGTT reports, programming order, formats without a layout). At
    /// most [`MAX_WARNINGS`] register-file warnings are kept, plus the OA
    /// model's own.
    pub fn warnings(&self) -> Vec<Warning> {
        let mut all = self.warnings.clone();
        all.extend(self.oa_warnings().into_iter().map(Warning::from));
        all.sort_by_key(|w| w.time);
        all
    }

    /// Take the warnings (see [`Emulator::warnings`]), leaving none.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        let mut all = core::mem::take(&mut self.warnings);
        all.extend(self.take_oa_warnings().into_iter().map(Warning::from));
        all.sort_by_key(|w| w.time);
        all
    }

    /// Register-file warnings not kept because the list was full.
    pub fn warnings_dropped(&self) -> u64 {
        self.warnings_dropped
    }

    /// Print every warning to stderr, one line each with a `warning:`
    /// prefix; returns how many there were. The examples end with this.
    pub fn print_warnings(&self) -> usize {
        let all = self.warnings();
        for w in &all {
            std::eprintln!("warning: {w}");
        }
        if self.warnings_dropped > 0 {
            std::eprintln!("warning: {} more not kept", self.warnings_dropped);
        }
        all.len()
    }

    /// Whether power domain `D` lets accesses through now: request bits
    /// 15:0 and the ack both non-zero. A domain the emulator has no
    /// handshake for (not this project's, or its request register is not
    /// bound) is reported asleep.
    pub fn awake<D: hal::power::Wakeable>(&self) -> bool {
        self.bindings
            .wake
            .iter()
            .find(|w| w.request == D::REQUEST && w.ack == D::ACK)
            .is_some_and(|w| self.domain_awake(w.domain))
    }

    /// Whether the domain at index `domain` of the project's `domains`
    /// lets accesses through now (always-on domains and domains without a
    /// handshake: true; an index past the list: false).
    pub fn domain_awake(&self, domain: usize) -> bool {
        self.awake.get(domain).copied().unwrap_or(false)
    }

    /// Accesses that ended unclaimed or terminated (the emulator's
    /// "unclaimed access" count: both read 0 and drop writes).
    pub fn unclaimed(&self) -> usize {
        self.count(Outcome::Unclaimed)
            .saturating_add(self.count(Outcome::Terminated))
    }

    /// Dword accesses that ended with `outcome`, traced or not.
    pub fn count(&self, outcome: Outcome) -> usize {
        match outcome {
            Outcome::Ok => self
                .counts
                .iter()
                .fold(self.total, |a, &c| a.saturating_sub(c)),
            o => self.counts.get(o.index()).copied().unwrap_or(0),
        }
    }

    /// Dword accesses so far, traced or not (a 64-bit access counts twice).
    pub fn accesses(&self) -> usize {
        self.total
    }

    /// The register at `addr` (its own address or, for a 64-bit register,
    /// address + 4), as decoded by the index.
    pub fn register_at(&self, addr: u64) -> Option<&'static RegisterInfo> {
        let (ri, _) = unslot(self.index.slot_at(addr))?;
        self.regs.get(ri).map(|r| r.info)
    }

    /// The wake domain an access to `addr` needs: the decoded register's
    /// [`domain`](RegisterInfo::domain), or for an address with no register,
    /// its force-wake table row's. Two array loads, no search.
    #[inline]
    pub fn domain_of(&self, addr: u64) -> Option<&'static str> {
        let t = match unslot(self.index.slot_at(addr)) {
            Some((ri, _)) => self.regs.get(ri).map_or(NONE16, |r| r.target),
            None => self.index.row_target(addr),
        };
        self.target_name(t)
    }

    /// The wake domain of the force-wake table row holding `addr`, from the
    /// direct index: the same answer as
    /// `project.row_at(addr).and_then(|r| r.wake)` (a binary search), for
    /// sorted, disjoint rows, without searching.
    #[inline]
    pub fn row_domain_of(&self, addr: u64) -> Option<&'static str> {
        self.target_name(self.index.row_target(addr))
    }

    /// Bytes of memory held by the direct address index.
    pub fn index_bytes(&self) -> usize {
        self.index.footprint()
    }

    /// Backdoor read, without side effects or trace: the stored value of the
    /// register whose address is `addr` (all its bits, WO bits included);
    /// instance 0 of a replicated register. `None` when no register has this
    /// address (address + 4 of a 64-bit register included).
    pub fn peek(&self, addr: u64) -> Option<u64> {
        self.peek_instance(addr, 0)
    }

    /// Backdoor read of instance `instance` of the register at `addr`
    /// (instance 0 for a register that is not replicated); `None` when there
    /// is no such register or instance.
    pub fn peek_instance(&self, addr: u64, instance: u32) -> Option<u64> {
        let (_, reg) = self.own_register(addr)?;
        if instance >= reg.instances {
            return None;
        }
        self.values.get(reg.base + instance as usize).copied()
    }

    /// Backdoor (hardware-side) update: store `value` in the register at
    /// `addr` (every instance of a replicated register), bypassing access
    /// rules, power and steering. Bits that cannot hold a value (MBZ, RSVD,
    /// undescribed, beyond the width) stay 0. A force-wake request poked
    /// schedules its ack like a write. Not traced. Returns false when no
    /// register has this address.
    pub fn poke(&mut self, addr: u64, value: u64) -> bool {
        let Some((ri, reg)) = self.own_register(addr) else {
            return false;
        };
        let v = value & reg.defined;
        let n = reg.instances as usize;
        for slot in self.values.iter_mut().skip(reg.base).take(n) {
            *slot = v;
        }
        self.after_store(ri);
        self.stored(ri, false);
        true
    }

    /// [`Emulator::poke`] of one instance; false when there is no such
    /// register or instance.
    pub fn poke_instance(&mut self, addr: u64, instance: u32, value: u64) -> bool {
        let Some((ri, reg)) = self.own_register(addr) else {
            return false;
        };
        if instance >= reg.instances {
            return false;
        }
        let Some(slot) = self.values.get_mut(reg.base + instance as usize) else {
            return false;
        };
        *slot = value & reg.defined;
        self.after_store(ri);
        self.stored(ri, false);
        true
    }

    /// Read the dword at `addr` (as [`Bus::read32`]).
    #[inline(always)]
    pub fn read32(&mut self, addr: u64) -> u32 {
        self.access_at(addr, None)
    }

    /// Write the dword at `addr` (as [`Bus::write32`]).
    #[inline(always)]
    pub fn write32(&mut self, addr: u64, value: u32) {
        self.access_at(addr, Some(value));
    }

    /// Read 64 bits as two dword accesses, low dword first: at a 64-bit
    /// register's address, its two halves; elsewhere `addr` and `addr + 4`.
    pub fn read64(&mut self, addr: u64) -> u64 {
        let (lo, hi) = self.pair(addr);
        let hi_addr = addr.wrapping_add(4);
        let l = self.access(addr, lo, None);
        let h = self.access(hi_addr, hi, None);
        u64::from(l) | u64::from(h) << 32
    }

    /// Write 64 bits as two dword accesses, low dword first (see
    /// [`Emulator::read64`]).
    pub fn write64(&mut self, addr: u64, value: u64) {
        let (lo, hi) = self.pair(addr);
        let hi_addr = addr.wrapping_add(4);
        self.access(addr, lo, Some(value as u32));
        self.access(hi_addr, hi, Some((value >> 32) as u32));
    }

    // ------------------------------------------------------------ internals

    /// The register whose own address is `addr`: its index in the register
    /// list and the value-store index of its instance 0.
    fn locate(&self, addr: u64) -> Option<(usize, usize)> {
        let ri = self.reg_at(addr)?;
        self.regs.get(ri).map(|r| (ri, r.base))
    }

    fn target_name(&self, t: u16) -> Option<&'static str> {
        self.targets.get(usize::from(t)).copied()
    }

    /// The register whose own address is `addr`.
    fn own_register(&self, addr: u64) -> Option<(usize, Reg)> {
        match unslot(self.index.slot_at(addr))? {
            (ri, false) => self.regs.get(ri).map(|r| (ri, *r)),
            (_, true) => None,
        }
    }

    /// Slots of a 64-bit access at `addr`.
    fn pair(&self, addr: u64) -> (Slot, Slot) {
        let lo = self.index.slot_at(addr);
        let hi = match unslot(lo) {
            Some((ri, false)) if self.regs.get(ri).is_some_and(|r| r.wide) => lo | 1,
            _ => self.index.slot_at(addr.wrapping_add(4)),
        };
        (lo, hi)
    }

    /// One dword access to `addr`, decoded as `s`.
    /// A plain register at `addr`, as last cached or from the index. The
    /// cache holds only while tracing is off and no domain has gone to
    /// sleep since it was filled (both empty it), so a hit needs no check.
    #[inline(always)]
    fn access_at(&mut self, addr: u64, write: Option<u32>) -> u32 {
        let (last_addr, h, _) = self.last;
        if addr == last_addr {
            if let Some(stored) = self.values.get_mut(h.base as usize) {
                self.total = self.total.wrapping_add(1);
                return plain_rule(stored, h, write);
            }
        }
        let s = self.index.slot_at(addr);
        self.access(addr, s, write)
    }

    /// The fast path's work on plain register `ri` (its domain awake).
    #[inline(always)]
    fn plain_access(&mut self, addr: u64, h: Hot, ri: usize, write: Option<u32>) -> Option<u32> {
        let stored = self.values.get_mut(h.base as usize)?;
        let r = plain_rule(stored, h, write);
        self.total = self.total.wrapping_add(1);
        if self.tracing {
            self.record_traced(addr, ri, write, r, None, Outcome::Ok);
        }
        Some(r)
    }

    #[inline(always)]
    fn access(&mut self, addr: u64, s: Slot, write: Option<u32>) -> u32 {
        let Some((ri, high)) = unslot(s) else {
            return self.no_register(addr, write);
        };
        // The fast path: a plain register whose domain is awake.
        if let Some(&h) = self.hot.get(ri) {
            if h.plain && !high && self.asleep & h.wake_bit == 0 {
                if !self.tracing {
                    self.last = (addr, h, ri);
                }
                if let Some(r) = self.plain_access(addr, h, ri, write) {
                    return r;
                }
            }
        }
        self.general(addr, ri, high, write)
    }

    /// Every access the fast path does not take.
    #[inline(never)]
    fn general(&mut self, addr: u64, ri: usize, high: bool, write: Option<u32>) -> u32 {
        let Some(&reg) = self.regs.get(ri) else {
            return self.no_register(addr, write);
        };
        let target = reg.target;
        if target != NONE16 && !self.awake.get(usize::from(target)).copied().unwrap_or(true) {
            self.record(addr, ri, write, 0, target, None, Outcome::Terminated);
            return 0;
        }
        if reg.instances > 1 {
            return self.replicated(addr, ri, &reg, high, write);
        }
        // One stored value under the general rules (masked, 64-bit,
        // RW1C/RW1S/RC, force-wake roles, registers units watch).
        let r = self.touch(&reg, reg.base, high, write);
        self.record(addr, ri, write, r, target, None, Outcome::Ok);
        if write.is_some() {
            self.after_store(ri);
            self.stored(ri, true);
        }
        r
    }

    #[cold]
    fn no_register(&mut self, addr: u64, write: Option<u32>) -> u32 {
        if let Some(k) = self.opaque_slot(addr) {
            return self.opaque_access(addr, k, write);
        }
        let t = self.index.row_target(addr);
        let asleep = t != NONE16 && !self.awake.get(usize::from(t)).copied().unwrap_or(true);
        let outcome = if asleep {
            Outcome::Terminated
        } else {
            Outcome::Unclaimed
        };
        self.record(addr, usize::MAX, write, 0, t, None, outcome);
        0
    }

    /// The opaque range (index into `self.opaque`) an aligned dword access
    /// at `addr` falls in: all four bytes inside it (a dword straddling the
    /// range's end, whose end is not the last byte of a dword, is as
    /// unclaimed as one straddling its start).
    fn opaque_slot(&self, addr: u64) -> Option<usize> {
        if addr % 4 != 0 {
            return None;
        }
        let last = addr.checked_add(3)?;
        let i = self.opaque.partition_point(|(r, _)| r.end < addr);
        self.opaque
            .get(i)
            .filter(|(r, _)| r.start <= addr && last <= r.end)
            .map(|_| i)
    }

    /// A dword access inside opaque range `k`: plain storage, or terminated
    /// while the range's wake domain sleeps.
    fn opaque_access(&mut self, addr: u64, k: usize, write: Option<u32>) -> u32 {
        let Some(&(range, t)) = self.opaque.get(k) else {
            return 0;
        };
        let asleep = t != NONE16 && !self.awake.get(usize::from(t)).copied().unwrap_or(true);
        let (read, outcome) = if asleep {
            (0, Outcome::Terminated)
        } else {
            let read = match write {
                // Unwritten dwords read 0: a zero needs no entry.
                Some(0) => {
                    self.opaque_values.remove(&addr);
                    0
                }
                Some(v) => {
                    self.opaque_values.insert(addr, v);
                    0
                }
                None => self.opaque_values.get(&addr).copied().unwrap_or(0),
            };
            (read, Outcome::Ok)
        };
        self.total = self.total.wrapping_add(1);
        let domain = self.target_name(t);
        if outcome != Outcome::Ok {
            if let Some(c) = self.counts.get_mut(outcome.index()) {
                *c = c.saturating_add(1);
            }
            let w = Warning::access(
                self.now,
                addr,
                Some(range.name),
                domain,
                None,
                write.is_some(),
                outcome,
            );
            if let Some(w) = w {
                if self.warnings.len() < MAX_WARNINGS {
                    self.warnings.push(w);
                } else {
                    self.warnings_dropped = self.warnings_dropped.saturating_add(1);
                }
            }
        }
        if self.tracing {
            self.trace.push(TraceEntry {
                time: self.now,
                addr,
                register: Some(range.name),
                value: u64::from(write.unwrap_or(read)),
                write: write.is_some(),
                domain,
                instance: None,
                outcome,
            });
        }
        read
    }

    /// Backdoor read of the dword at `addr` inside an opaque range (0 until
    /// written); `None` when `addr` is not an aligned dword of one.
    pub fn peek_opaque(&self, addr: u64) -> Option<u32> {
        self.opaque_slot(addr)?;
        Some(self.opaque_values.get(&addr).copied().unwrap_or(0))
    }

    /// The opaque ranges the emulator stores (the project's and extra ones),
    /// by ascending start.
    pub fn opaque_ranges(&self) -> impl Iterator<Item = &OpaqueRange> {
        self.opaque.iter().map(|(r, _)| r)
    }

    /// An access to a replicated register, steered.
    fn replicated(
        &mut self,
        addr: u64,
        ri: usize,
        reg: &Reg,
        high: bool,
        write: Option<u32>,
    ) -> u32 {
        let (multicast, inst) = self.steering.select(&self.values);
        let present = self
            .present
            .get(usize::from(reg.group))
            .copied()
            .unwrap_or(u64::MAX)
            & low_bits(reg.instances);
        if let (Some(_), true) = (write, multicast) {
            if present == 0 {
                self.record(addr, ri, write, 0, reg.target, None, Outcome::FusedOff);
                return 0;
            }
            for i in 0..reg.instances {
                if present >> i & 1 != 0 {
                    self.touch(reg, reg.base + i as usize, high, write);
                }
            }
            self.record(addr, ri, write, 0, reg.target, None, Outcome::Ok);
            if reg.role != Role::Plain {
                self.after_store(ri);
            }
            self.stored(ri, true);
            return 0;
        }
        let here = inst < reg.instances && present.checked_shr(inst).unwrap_or(0) & 1 != 0;
        if !here {
            self.record(
                addr,
                ri,
                write,
                0,
                reg.target,
                Some(inst),
                Outcome::FusedOff,
            );
            return 0;
        }
        let r = self.touch(reg, reg.base + inst as usize, high, write);
        self.record(addr, ri, write, r, reg.target, Some(inst), Outcome::Ok);
        if write.is_some() && reg.role != Role::Plain {
            self.after_store(ri);
        }
        if write.is_some() {
            self.stored(ri, true);
        }
        r
    }

    /// Apply a read or write to the stored value at `idx`; the dword read
    /// (0 for a write).
    #[inline]
    fn touch(&mut self, reg: &Reg, idx: usize, high: bool, write: Option<u32>) -> u32 {
        let Some(stored) = self.values.get_mut(idx) else {
            return 0;
        };
        match write {
            Some(v) => {
                *stored = reg.write(*stored, v, high);
                0
            }
            None => {
                let (r, left) = reg.read(*stored, high);
                *stored = left;
                r
            }
        }
    }

    /// Count an access and trace it when tracing; `ri` is the register
    /// index (`usize::MAX`: none), resolved to a name only when traced.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn record(
        &mut self,
        addr: u64,
        ri: usize,
        write: Option<u32>,
        read: u32,
        target: u16,
        instance: Option<u32>,
        outcome: Outcome,
    ) {
        self.total = self.total.wrapping_add(1);
        if outcome != Outcome::Ok {
            if let Some(c) = self.counts.get_mut(outcome.index()) {
                *c = c.saturating_add(1);
            }
            let register = self.regs.get(ri).map(|r| r.info.name);
            let domain = self.target_name(target);
            if let Some(w) = Warning::access(
                self.now,
                addr,
                register,
                domain,
                instance,
                write.is_some(),
                outcome,
            ) {
                if self.warnings.len() < MAX_WARNINGS {
                    self.warnings.push(w);
                } else {
                    self.warnings_dropped = self.warnings_dropped.saturating_add(1);
                }
            }
        }
        if self.tracing {
            self.push_trace(addr, ri, write, read, target, instance, outcome);
        }
    }

    /// The fast path's trace entry (its target is the register's).
    #[inline(never)]
    fn record_traced(
        &mut self,
        addr: u64,
        ri: usize,
        write: Option<u32>,
        read: u32,
        instance: Option<u32>,
        outcome: Outcome,
    ) {
        let target = self.regs.get(ri).map_or(NONE16, |r| r.target);
        self.push_trace(addr, ri, write, read, target, instance, outcome);
    }

    #[allow(clippy::too_many_arguments)]
    fn push_trace(
        &mut self,
        addr: u64,
        ri: usize,
        write: Option<u32>,
        read: u32,
        target: u16,
        instance: Option<u32>,
        outcome: Outcome,
    ) {
        let register = self.regs.get(ri).map(|r| r.info.name);
        self.trace.push(TraceEntry {
            time: self.now,
            addr,
            register,
            value: u64::from(write.unwrap_or(read)),
            write: write.is_some(),
            domain: self.target_name(target),
            instance,
            outcome,
        });
    }

    /// Side effects of a change of register `ri`'s stored value.
    fn after_store(&mut self, ri: usize) {
        let Some(reg) = self.regs.get(ri) else { return };
        let d = match reg.role {
            Role::Plain => return,
            Role::Request(d) => {
                let req = self.values.get(reg.base).copied().unwrap_or(0);
                let (now, latency) = (self.now, self.sku.wake_latency);
                if let Some(f) = self.fw.get_mut(d) {
                    f.requested(now, latency, req);
                }
                d
            }
            Role::Ack(d) => d,
        };
        self.refresh(d);
    }

    /// Recompute whether force-wake domain `d` is awake.
    fn refresh(&mut self, d: usize) {
        let Some(f) = self.fw.get(d) else { return };
        let value = |ri: usize| {
            self.regs
                .get(ri)
                .and_then(|r| self.values.get(r.base))
                .copied()
                .unwrap_or(0)
        };
        let on = value(f.request) & 0xFFFF != 0 && value(f.ack) != 0;
        let t = usize::from(f.target);
        self.set_awake(t, on);
    }
}

/// Read or write a plain register's stored value (see [`Hot`]).
#[inline(always)]
fn plain_rule(stored: &mut u64, h: Hot, write: Option<u32>) -> u32 {
    let old = *stored as u32;
    match write {
        Some(v) => {
            *stored = u64::from((old & !h.take) | (v & h.take));
            0
        }
        None => old & h.readable,
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
