//! The emulated register file: access rules, decode, force-wake, multicast
//! steering and the trace, checked against the shipped metadata and against
//! small hand-built projects for access kinds the shipped descriptions lack.

use hal::meta::{AccessKind, DomainInfo, FieldInfo, MapRow, ProjectInfo, RegisterInfo, SpaceKind};
use hal::{hsw, tgl, Bus, Mmio};
use perfregs_emu::bind::{self, Bindings, WakeRef};
use perfregs_emu::*;

// ------------------------------------------------------------------ helpers

fn addr(p: &ProjectInfo, name: &str) -> u64 {
    reg(p, name).address
}

/// Mask of the bits of `r` whose field has one of `kinds`.
fn kind_mask(r: &RegisterInfo, kinds: &[AccessKind]) -> u64 {
    r.fields
        .iter()
        .filter(|f| kinds.contains(&f.access))
        .fold(0, |m, f| m | f.mask())
}

/// Bits a read of `r` can return, from the metadata alone.
fn readable(r: &RegisterInfo) -> u64 {
    use AccessKind::*;
    let m = kind_mask(r, &[Rw, Ro, Rw1c, Rw1s, Rc, Pbc, RwV, RoV, RwDb]);
    if r.masked {
        m & 0xFFFF
    } else {
        m
    }
}

/// The register file of `p` with its units off (these tests look at the
/// register file alone): built-in projects by their generated bindings,
/// the hand-built ones here by bindings written out.
fn emulator(p: &'static ProjectInfo, sku: Sku) -> Emulator {
    if core::ptr::eq(p, &TINY) {
        return Emulator::builder(TINY_BINDINGS.project, sku)
            .bindings(TINY_BINDINGS)
            .without::<OaUnit>()
            .build();
    }
    if core::ptr::eq(p, tgl_replicated()) {
        // TGL plus registers: the same addresses, so TGL's bindings hold.
        return Emulator::builder(p, sku)
            .bindings(Bindings {
                project: p,
                ..bind::TGL
            })
            .without::<OaUnit>()
            .build();
    }
    let mut emu = Emulator::new(p, sku);
    emu.unit_mut::<OaUnit>().disable();
    emu
}

/// Whether the project's domain `name` is awake (tests name domains; the
/// emulator itself takes indices or types).
fn awake(emu: &Emulator, name: &str) -> bool {
    let p = emu.project();
    let i = p.domains.iter().position(|d| d.name == name);
    emu.domain_awake(i.expect("a domain of the project"))
}

fn wake(emu: &mut Emulator, domain: &str) {
    let p = emu.project();
    let d = p.domain(domain).expect("domain");
    let req = reg(p, d.request.expect("request register"));
    emu.write32(req.address, 0x0001_0001);
    emu.advance(emu.sku().wake_latency);
    assert!(awake(emu, domain), "{domain} did not wake");
}

/// The wake domain an access to `a` needs: the decoded register's, else
/// its force-wake table row's.
fn domain_of(emu: &Emulator, a: u64) -> Option<&'static str> {
    emu.register_at(a)
        .map_or_else(|| emu.row_domain_of(a), |r| r.domain)
}

fn last(emu: &Emulator) -> TraceEntry {
    *emu.trace().last().expect("an access was traced")
}

/// Read `addr`: the outcome and the domain the trace gives the read.
fn read_traced(emu: &mut Emulator, addr: u64) -> (Outcome, Option<&'static str>) {
    emu.read32(addr);
    let e = last(emu);
    (e.outcome, e.domain)
}

/// A field of the given kind somewhere in the shipped descriptions.
fn shipped_field(
    kind: AccessKind,
) -> Option<(
    &'static ProjectInfo,
    &'static RegisterInfo,
    &'static FieldInfo,
)> {
    hal::PROJECTS.iter().copied().find_map(|p| {
        p.registers.iter().find_map(|r| {
            r.fields
                .iter()
                .find(|f| f.access == kind)
                .map(|f| (p, r, f))
        })
    })
}

// ------------------------------------------------------ hand-built project

const fn field(name: &'static str, lsb: u32, width: u32, access: AccessKind) -> FieldInfo {
    FieldInfo {
        name,
        lsb,
        width,
        access,
        values: &[],
        description: "",
        address: false,
    }
}

const fn register(
    name: &'static str,
    address: u64,
    width: u32,
    reset: u64,
    masked: bool,
    fields: &'static [FieldInfo],
    domain: Option<&'static str>,
) -> RegisterInfo {
    RegisterInfo {
        name,
        block: "test",
        title: "",
        space: SpaceKind::Mmio,
        address,
        width,
        reset,
        masked,
        fields,
        domain,
        replication: None,
    }
}

use AccessKind::*;

use crate::support;
use support::*;

/// Bits 3:0 RW, 7:4 RW1S, 11:8 RC, 15:12 PBC, 19:16 MBZ, 23:20 RSVD,
/// 27:24 undescribed, 31:28 WO.
static KIND_FIELDS: [FieldInfo; 7] = [
    field("rw", 0, 4, Rw),
    field("w1s", 4, 4, Rw1s),
    field("rc", 8, 4, Rc),
    field("pbc", 12, 4, Pbc),
    field("mbz", 16, 4, Mbz),
    field("rsvd", 20, 4, Rsvd),
    field("wo", 28, 4, Wo),
];
static RW32: [FieldInfo; 1] = [field("value", 0, 32, Rw)];
static WIDE_FIELDS: [FieldInfo; 4] = [
    field("lo", 0, 32, Rw),
    field("ov", 32, 4, Rw1c),
    field("hi", 36, 12, RwDb),
    field("rsvd", 48, 16, Rsvd),
];
static FW_REQ: [FieldInfo; 3] = [
    field("kernel", 0, 1, Rw),
    field("user", 1, 1, Rw),
    field("fallback", 15, 1, Rw),
];
static FW_ACK: [FieldInfo; 3] = [
    field("kernel", 0, 1, RoV),
    field("user", 1, 1, RoV),
    field("fallback", 15, 1, RoV),
];
/// A masked register whose description (oddly) puts a field in 31:16.
static MASKED_FIELDS: [FieldInfo; 2] = [field("low", 0, 16, Rw), field("odd", 16, 8, Rw)];
static ODD_FIELDS: [FieldInfo; 2] = [field("count", 0, 40, RwV), field("rsvd", 40, 24, Rsvd)];

const KINDS_ADDR: u64 = 0x100;
const WIDE_ADDR: u64 = 0x200;
const ODD_ADDR: u64 = 0x301;
const ODD_NEXT: u64 = 0x302;
const PW_REQ: u64 = 0x400;
const PW_ACK: u64 = 0x404;
const PW_REG: u64 = 0x500;
const GHOST_REG: u64 = 0x600;
const UNKNOWN_REG: u64 = 0x604;
const MASKED_ADDR: u64 = 0x700;
const FAR_ADDR: u64 = 0x1_0000_0000;
const FAR_ROW_FREE: u64 = 0x1_0000_0010;

static KINDS: RegisterInfo = register(
    "KINDS",
    KINDS_ADDR,
    32,
    0xFFFF_A503,
    false,
    &KIND_FIELDS,
    None,
);
static WIDE: RegisterInfo = register("WIDE", WIDE_ADDR, 64, 0, false, &WIDE_FIELDS, None);
static ODD: RegisterInfo = register("ODD", ODD_ADDR, 64, 0, false, &ODD_FIELDS, None);
static ODD2: RegisterInfo = register("ODD2", ODD_NEXT, 64, 0, false, &ODD_FIELDS, None);
static REQ: RegisterInfo = register("PW_REQ", PW_REQ, 32, 0, true, &FW_REQ, None);
static ACK: RegisterInfo = register("PW_ACK", PW_ACK, 32, 0, false, &FW_ACK, None);
static PWR: RegisterInfo = register("PW_REG", PW_REG, 32, 0, false, &RW32, Some("pw"));
static GHOST: RegisterInfo = register("GHOST_REG", GHOST_REG, 32, 0, false, &RW32, Some("ghost"));
static UNKNOWN: RegisterInfo = register(
    "UNKNOWN_REG",
    UNKNOWN_REG,
    32,
    0,
    false,
    &RW32,
    Some("nowhere"),
);
static FAR: RegisterInfo = register("FAR", FAR_ADDR, 32, 0, false, &RW32, Some("pw"));
static MASKED: RegisterInfo = register(
    "MASKED",
    MASKED_ADDR,
    32,
    0xFFFF_FFFF,
    true,
    &MASKED_FIELDS,
    None,
);
static TINY_REGS: [RegisterInfo; 11] = [
    KINDS, WIDE, ODD, ODD2, REQ, ACK, PWR, GHOST, UNKNOWN, FAR, MASKED,
];
static TINY_DOMAINS: [DomainInfo; 2] = [
    DomainInfo {
        name: "pw",
        always_on: false,
        request: Some("PW_REQ"),
        ack: Some("PW_ACK"),
        description: "",
    },
    DomainInfo {
        name: "ghost",
        always_on: false,
        request: None,
        ack: None,
        description: "",
    },
];
const fn row(start: u64, end: u64, wake: Option<&'static str>) -> MapRow {
    MapRow {
        start,
        end,
        wake,
        group: None,
        instances: 1,
        steering: "",
    }
}
static TINY_MAP: [MapRow; 2] = [
    row(0x500, 0x5FF, Some("pw")),
    row(0x1_0000_0000, 0x1_0000_0FFF, Some("pw")),
];
/// TINY's force-wake handshake: domain 0 (`pw`), request and ack registers.
static TINY_BINDINGS: Bindings = Bindings {
    wake: &[WakeRef {
        domain: 0,
        request: PW_REQ,
        ack: PW_ACK,
        bit: 0,
    }],
    ..Bindings::empty(&TINY)
};
static TINY: ProjectInfo = ProjectInfo {
    name: "tiny",
    title: "hand-built project for the access kinds the shipped descriptions lack",
    registers: &TINY_REGS,
    events: &[],
    domains: &TINY_DOMAINS,
    groups: &[],
    map: &TINY_MAP,
    formats: &[],
    tables: &[],
    steering: None,
    opaque: &[],
    commands: &[],
    gpu: None,
};

/// TGL with a replicated register in every group (see
/// `support::tgl_replicated`) on `sku`, every domain awake: the project, its
/// DSS register, the steering selector's address and the emulator.
fn steering_rig(sku: Sku) -> (&'static ProjectInfo, &'static RegisterInfo, u64, Emulator) {
    let p = tgl_replicated();
    let mut emu = emulator(p, sku);
    wake_all(&mut emu);
    (p, repl(p, "dss"), addr(p, "MCR_SELECTOR"), emu)
}

/// The first replicated register of `group` whose fields are all RW
/// (value storage without side effects).
fn repl(p: &ProjectInfo, group: &str) -> &'static RegisterInfo {
    p.registers
        .iter()
        .find(|r| {
            r.replication.is_some_and(|(g, _)| g == group)
                && r.width == 32
                && !r.masked
                && r.fields.iter().all(|f| f.access == Rw)
                && readable(r) == 0xFFFF_FFFF
        })
        .unwrap_or_else(|| panic!("no replicated {group} register"))
}

fn mcr(multicast: bool, slice: u32, subslice: u32) -> u32 {
    u32::from(multicast) << 31 | slice << 27 | subslice << 24
}

// ------------------------------------------------------------ reset values

#[test]
fn reset_values_read_back_on_every_project() {
    for &p in hal::PROJECTS {
        let mut emu = emulator(p, Sku::default());
        wake_all(&mut emu);
        let special: Vec<&str> = p
            .domains
            .iter()
            .flat_map(|d| [d.request, d.ack])
            .chain(p.groups.iter().map(|g| g.fuse.map(|f| f.register)))
            .flatten()
            .collect();
        let mut checked = 0;
        for r in p.registers {
            if special.contains(&r.name)
                || r.replication.is_some()
                || emu.register_at(r.address).map(|x| x.name) != Some(r.name)
            {
                continue;
            }
            let want = r.reset & readable(r) & 0xFFFF_FFFF;
            assert_eq!(emu.read32(r.address) as u64, want, "{} {}", p.name, r.name);
            checked += 1;
        }
        assert!(checked > 0, "{}", p.name);
    }
}

#[test]
fn reset_values_specific() {
    let mut emu = emulator(&hsw::PROJECT, Sku::default());
    wake(&mut emu, "render");
    assert_eq!(reg(&hsw::PROJECT, "OASTATUS2").reset, 1);
    assert_eq!(emu.read32(addr(&hsw::PROJECT, "OASTATUS2")), 1);
    let mut emu = emulator(&tgl::PROJECT, Sku::default());
    assert_eq!(emu.read32(addr(&tgl::PROJECT, "MCR_SELECTOR")), 0x8000_0000);
}

#[test]
fn reset_clears_mbz_reserved_and_undescribed_bits() {
    let mut emu = emulator(&TINY, Sku::default());
    // reset 0xFFFF_A503: MBZ 19:16, RSVD 23:20, undescribed 27:24 dropped;
    // WO 31:28 stored but read as 0.
    assert_eq!(emu.peek(KINDS_ADDR, 0), Some(0xF000_A503));
    assert_eq!(emu.read32(KINDS_ADDR), 0x0000_A503);
}

// ------------------------------------------------------------ access rules

#[test]
fn ro_bits_ignore_writes() {
    // Shipped RO field: TGL's DSS fuse mirror.
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default());
    wake(&mut emu, "gt");
    let fuse = addr(p, "MIRROR_FUSE_DSS_ENABLE");
    assert_eq!(emu.read32(fuse), 0x3F);
    emu.write32(fuse, 0);
    assert_eq!(last(&emu).outcome, Outcome::Ok);
    assert_eq!(emu.read32(fuse), 0x3F);

    // HSW OABUFFER: overrun_status (bit 4) is RO next to RW fields.
    let p = &hsw::PROJECT;
    let r = reg(p, "OABUFFER");
    let ro = kind_mask(r, &[Ro]);
    assert_eq!(ro, 1 << 4);
    let mut emu = emulator(p, Sku::default());
    wake(&mut emu, "render");
    assert!(emu.poke(r.address, ro));
    emu.write32(r.address, 0);
    assert_eq!(emu.read32(r.address) as u64, ro);
    emu.write32(r.address, 0xFFFF_FFFF);
    assert_eq!(emu.read32(r.address) as u64, readable(r));
    emu.poke(r.address, 0);
    emu.write32(r.address, 0xFFFF_FFFF);
    assert_eq!(
        emu.read32(r.address) as u64 & ro,
        0,
        "a write cannot set an RO bit"
    );
}

#[test]
fn wo_bits_read_zero() {
    let (p, r, f) = shipped_field(Wo).expect("a shipped WO field");
    let mut emu = emulator(p, Sku::default());
    wake_all(&mut emu);
    let wo = f.mask();
    emu.write32(r.address, wo as u32);
    assert_eq!(
        emu.read32(r.address) as u64 & wo,
        0,
        "{}.{}",
        r.name,
        f.name
    );
    assert_eq!(
        emu.peek(r.address, 0).map(|v| v & wo),
        Some(wo),
        "stored, just not readable"
    );
    // Hand-built: bits 31:28 WO next to RW bits.
    let mut emu = emulator(&TINY, Sku::default());
    emu.write32(KINDS_ADDR, 0x5000_0009);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF000_000F, 0x9);
}

#[test]
fn rw1c_written_one_clears() {
    let (p, r, f) = shipped_field(Rw1c).expect("a shipped RW1C field");
    let mut emu = emulator(p, Sku::default());
    wake_all(&mut emu);
    let m = f.mask();
    let lo = m & m.wrapping_neg(); // lowest bit of the field
    assert!(emu.poke(r.address, m));
    emu.write32(r.address, 0);
    assert_eq!(
        emu.peek(r.address, 0).map(|v| v & m),
        Some(m),
        "writing 0 keeps RW1C bits"
    );
    emu.write32(r.address, lo as u32);
    assert_eq!(
        emu.read32(r.address) as u64 & m,
        m & !lo,
        "{}.{}",
        r.name,
        f.name
    );
    emu.write32(r.address, m as u32);
    assert_eq!(emu.read32(r.address) as u64 & m, 0);
    emu.write32(r.address, m as u32);
    assert_eq!(
        emu.read32(r.address) as u64 & m,
        0,
        "writing 1 never sets an RW1C bit"
    );

    // The IVT R2PCIe box status named by the design: ov[3:0].
    let ivt = &hal::ivt::PROJECT;
    let st = addr(ivt, "R2_PCI_PMON_BOX_STATUS");
    let mut emu = emulator(ivt, Sku::default());
    emu.poke(st, 0xF);
    emu.write32(st, 0x5);
    assert_eq!(emu.read32(st), 0xA);
}

#[test]
fn rw1s_written_one_sets() {
    // No shipped description has an RW1S field: hand-built register.
    let mut emu = emulator(&TINY, Sku::default());
    emu.write32(KINDS_ADDR, 0x0000_0050);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF0, 0x50);
    emu.write32(KINDS_ADDR, 0x0000_0020);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF0, 0x70, "ones accumulate");
    emu.write32(KINDS_ADDR, 0);
    assert_eq!(
        emu.read32(KINDS_ADDR) & 0xF0,
        0x70,
        "a written 0 does not clear"
    );
}

#[test]
fn rc_clears_on_read_and_ignores_writes() {
    let mut emu = emulator(&TINY, Sku::default());
    emu.write32(KINDS_ADDR, 0x0000_0F00);
    assert_eq!(
        emu.peek(KINDS_ADDR, 0).map(|v| v & 0xF00),
        Some(0x500),
        "writes ignored"
    );
    assert_eq!(
        emu.peek(KINDS_ADDR, 0).map(|v| v & 0xF00),
        Some(0x500),
        "peek does not clear"
    );
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF00, 0x500);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF00, 0, "cleared by the read");
    emu.poke(KINDS_ADDR, 0x300);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF00, 0x300);
}

#[test]
fn pbc_bits_keep_their_value() {
    let mut emu = emulator(&TINY, Sku::default());
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF000, 0xA000);
    emu.write32(KINDS_ADDR, 0);
    emu.write32(KINDS_ADDR, 0xFFFF_FFFF);
    assert_eq!(emu.read32(KINDS_ADDR) & 0xF000, 0xA000);
}

#[test]
fn mbz_reserved_and_undescribed_bits_stay_zero() {
    let p = &tgl::PROJECT;
    let r = reg(p, "OAG_OASTARTTRIG2");
    let mbz = kind_mask(r, &[Mbz]);
    assert_eq!(mbz, 1 << 24);
    let mut emu = emulator(p, Sku::default());
    wake(&mut emu, "gt");
    emu.write32(r.address, 0xFFFF_FFFF);
    let v = emu.read32(r.address) as u64;
    assert_eq!(v & mbz, 0);
    assert_eq!(v & 0x0E00_0000, 0, "27:25 are described by no field");
    assert_eq!(v, readable(r));

    let mut emu = emulator(&TINY, Sku::default());
    emu.write32(KINDS_ADDR, 0xFFFF_FFFF);
    assert_eq!(emu.peek(KINDS_ADDR, 0).map(|v| v & 0x0FFF_0000), Some(0));
    emu.poke(KINDS_ADDR, u64::MAX);
    assert_eq!(
        emu.peek(KINDS_ADDR, 0).map(|v| v & 0x0FFF_0000),
        Some(0),
        "not even by poke"
    );
}

#[test]
fn masked_register_changes_only_enabled_bits() {
    let p = &tgl::PROJECT;
    let r = reg(p, "OAG_OA_DEBUG");
    assert!(r.masked);
    let bit = r.field("disable_ctx_switch_reports").expect("field").mask() as u32;
    let other = r.field("include_clk_ratio").expect("field").mask() as u32;
    let mut emu = emulator(p, Sku::default());
    wake(&mut emu, "gt");
    emu.write32(r.address, bit);
    assert_eq!(emu.read32(r.address), 0, "no enable bit: nothing changes");
    emu.write32(r.address, bit << 16 | bit | other);
    assert_eq!(emu.read32(r.address), bit, "only the enabled bit changed");
    emu.write32(r.address, other << 16 | other);
    assert_eq!(emu.read32(r.address), bit | other);
    emu.write32(r.address, bit << 16);
    assert_eq!(emu.read32(r.address), other, "masked disable");
    emu.write32(r.address, 0xFFFF_FFFF);
    assert_eq!(emu.read32(r.address) >> 16, 0, "bits 31:16 read as 0");
    assert_eq!(emu.read32(r.address) as u64, readable(r));
}

#[test]
fn masked_register_stores_only_the_low_half() {
    let mut emu = emulator(&TINY, Sku::default());
    assert_eq!(emu.read32(MASKED_ADDR), 0xFFFF, "reset: low 16 bits only");
    emu.write32(MASKED_ADDR, 0xFFFF_0000);
    assert_eq!(emu.read32(MASKED_ADDR), 0);
    emu.write32(MASKED_ADDR, 0xFFFF_FFFF);
    assert_eq!(
        emu.read32(MASKED_ADDR),
        0xFFFF,
        "bits 31:16 are enables, not data"
    );
    emu.poke(MASKED_ADDR, u64::MAX);
    assert_eq!(emu.peek(MASKED_ADDR, 0), Some(0xFFFF));
}

// ---------------------------------------------------------------- decode

#[test]
fn unclaimed_addresses_read_zero_and_drop_writes() {
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default());
    assert!(
        p.row_at(0x4).is_some_and(|r| r.wake.is_none()),
        "0x4 is a reserved row"
    );
    assert_eq!(emu.read32(0x4), 0);
    let e = last(&emu);
    assert_eq!(
        (e.register, e.domain, e.outcome),
        (None, None, Outcome::Unclaimed)
    );
    emu.write32(0x4, 0xFFFF_FFFF);
    assert_eq!(last(&emu).outcome, Outcome::Unclaimed);
    assert_eq!(emu.read32(0x4), 0, "the write was dropped");
    assert_eq!((emu.counts().unclaimed + emu.counts().terminated), 3);

    // Only exact addresses decode.
    let sel = addr(p, "MCR_SELECTOR");
    assert_eq!(emu.read32(sel + 1), 0);
    assert_eq!(last(&emu).outcome, Outcome::Unclaimed);
    // Far and wrapping addresses.
    for a in [1 << 40, u64::MAX, u64::MAX - 3] {
        emu.write32(a, 1);
        assert_eq!(emu.read32(a), 0);
        assert_eq!(emu.read64(a), 0);
        assert_eq!(last(&emu).outcome, Outcome::Unclaimed);
    }
}

#[test]
fn sixty_four_bit_registers_are_two_dwords() {
    let ivt = &hal::ivt::PROJECT;
    let r = reg(ivt, "R2_PCI_PMON_CTR0");
    assert_eq!(r.width, 64);
    let m = readable(r);
    let mut emu = emulator(ivt, Sku::default());
    emu.write32(r.address, 0xDEAD_BEEF);
    emu.write32(r.address + 4, 0xFFFF_FFFF);
    assert_eq!(emu.peek(r.address, 0), Some(0xFFFF_FFFF_DEAD_BEEF & m));
    assert_eq!(emu.read32(r.address), 0xDEAD_BEEF);
    assert_eq!(emu.read32(r.address + 4) as u64, m >> 32);
    let e = last(&emu);
    assert_eq!((e.addr, e.register), (r.address + 4, Some(r.name)));
    assert_eq!(
        emu.peek(r.address + 4, 0),
        None,
        "peek names a register by its own address"
    );
    let n = emu.trace().len();
    assert_eq!(
        Bus::<Mmio>::read64(&mut emu, r.address),
        0xFFFF_FFFF_DEAD_BEEF & m
    );
    emu.write64(r.address, 0x1234_5678_9ABC_DEF0);
    assert_eq!(emu.peek(r.address, 0), Some(0x1234_5678_9ABC_DEF0 & m));
    assert_eq!(
        emu.trace().len(),
        n + 4,
        "each 64-bit access is two dword accesses"
    );

    // High-half rules: RW1C bits 35:32, RW-DB 47:36, RSVD 63:48.
    let mut emu = emulator(&TINY, Sku::default());
    emu.poke(WIDE_ADDR, 0xF << 32);
    emu.write32(WIDE_ADDR + 4, 0xFFFF_FFF3);
    assert_eq!(emu.peek(WIDE_ADDR, 0), Some(0xFFFC << 32));
    assert_eq!(emu.read32(WIDE_ADDR + 4), 0xFFFC);

    // Consecutive 64-bit MSRs: a register's own address wins over the high
    // dword of its neighbour; read64/write64 still reach both halves.
    let mut emu = emulator(&TINY, Sku::default());
    emu.write64(ODD_ADDR, u64::MAX);
    assert_eq!(emu.peek(ODD_ADDR, 0), Some((1 << 40) - 1));
    assert_eq!(emu.read64(ODD_ADDR), (1 << 40) - 1);
    assert_eq!(emu.peek(ODD_NEXT, 0), Some(0));
    let p4 = &hal::p4::PROJECT;
    let c0 = reg(p4, "P4_COUNTER0");
    let c4 = emu_register_at(p4, c0.address + 4);
    let mut emu = emulator(p4, Sku::default());
    emu.write64(c0.address, 0x12_3456_789A);
    assert_eq!(emu.read64(c0.address), 0x12_3456_789A);
    assert_eq!(emu.peek(c4.address, 0), Some(c4.reset));
    assert_eq!(
        emu.register_at(c0.address + 4).map(|r| r.name),
        Some(c4.name)
    );
}

fn emu_register_at(p: &ProjectInfo, a: u64) -> &'static RegisterInfo {
    p.registers
        .iter()
        .find(|r| r.address == a)
        .expect("a register at the address")
}

#[test]
fn far_addresses_use_the_fallback_path() {
    let mut emu = emulator(&TINY, Sku::default());
    assert_eq!(domain_of(&emu, FAR_ADDR), Some("pw"));
    assert_eq!(emu.row_domain_of(FAR_ROW_FREE), Some("pw"));
    assert_eq!(emu.row_domain_of(0x1_0000_1000), None);
    emu.write32(FAR_ADDR, 7);
    assert_eq!(last(&emu).outcome, Outcome::Terminated);
    assert_eq!(read_traced(&mut emu, FAR_ROW_FREE).0, Outcome::Terminated);
    emu.write32(PW_REQ, 0x0001_0001);
    emu.advance(3);
    emu.write32(FAR_ADDR, 7);
    assert_eq!(emu.read32(FAR_ADDR), 7);
    assert_eq!(read_traced(&mut emu, FAR_ROW_FREE).0, Outcome::Unclaimed);
}

// ------------------------------------------------------------- force-wake

/// TGL's register `name`, which must be in wake domain `domain`, and a TGL
/// emulator.
fn tgl_register_in(name: &str, domain: &str) -> (&'static RegisterInfo, Emulator) {
    let p = &tgl::PROJECT;
    let r = reg(p, name);
    assert_eq!(r.domain, Some(domain), "{name}");
    (r, emulator(p, Sku::default()))
}

/// The addresses of the request and ack registers of `p`'s domain `domain`.
fn request_ack(p: &ProjectInfo, domain: &str) -> (u64, u64) {
    let d = p.domain(domain).expect("domain");
    (
        addr(p, d.request.expect("req")),
        addr(p, d.ack.expect("ack")),
    )
}

#[test]
fn asleep_domain_terminates_accesses() {
    let p = &tgl::PROJECT;
    let (r, mut emu) = tgl_register_in("OAG_OACONTROL", "gt");
    assert!(!awake(&emu, "gt"));
    emu.poke(r.address, 0x5);
    assert_eq!(emu.read32(r.address), 0);
    emu.write32(r.address, 0x1);
    assert_eq!(emu.peek(r.address, 0), Some(0x5), "the write was dropped");
    let t = emu.trace();
    assert_eq!(t.len(), 2);
    for (e, write) in t.iter().zip([false, true]) {
        assert_eq!(e.outcome, Outcome::Terminated);
        assert_eq!(
            (e.write, e.domain, e.register),
            (write, Some("gt"), Some(r.name))
        );
    }
    assert_eq!(t[1].value, 1, "the dropped value is recorded");
    assert_eq!((emu.counts().unclaimed + emu.counts().terminated), 2);
    assert_eq!(emu.counts().of(Outcome::Terminated), 2);

    // An address with no register takes its table row's domain.
    let free = 0x2004;
    assert!(emu.register_at(free).is_none());
    assert_eq!(p.row_at(free).and_then(|r| r.wake), Some("render"));
    assert_eq!(
        read_traced(&mut emu, free),
        (Outcome::Terminated, Some("render"))
    );
    wake(&mut emu, "render");
    assert_eq!(read_traced(&mut emu, free).0, Outcome::Unclaimed);
}

#[test]
fn domain_wakes_only_after_latency() {
    let p = &tgl::PROJECT;
    let (req, ack) = request_ack(p, "gt");
    let ctl = addr(p, "OAG_OACONTROL");
    let mut emu = emulator(p, Sku::default());
    emu.write32(req, 0x0001_0001);
    assert_eq!(emu.peek(req, 0), Some(1));
    assert!(!awake(&emu, "gt"));
    emu.advance(Sku::DEFAULT_WAKE_LATENCY - 1);
    assert!(!awake(&emu, "gt"));
    assert_eq!(emu.read32(ack), 0);
    assert_eq!(read_traced(&mut emu, ctl).0, Outcome::Terminated);
    emu.advance(1);
    assert!(awake(&emu, "gt"));
    assert_eq!(emu.read32(ack), 1);
    emu.write32(ctl, 0x1d);
    assert_eq!(emu.read32(ctl), 0x1d);
    assert_eq!(last(&emu).outcome, Outcome::Ok);

    // Custom latency.
    let mut emu = emulator(p, Sku::default().with_wake_latency(10));
    emu.write32(req, 0x0001_0001);
    emu.advance(9);
    assert!(!awake(&emu, "gt"));
    emu.advance(1);
    assert!(awake(&emu, "gt"));
}

#[test]
fn release_puts_domain_to_sleep() {
    let p = &tgl::PROJECT;
    let (req, ack) = request_ack(p, "render");
    let mut emu = emulator(p, Sku::default());
    // Kernel and user requests; the ack follows both bits.
    emu.write32(req, 0x0003_0003);
    emu.advance(3);
    assert_eq!(emu.read32(ack), 3);
    emu.write32(req, 0x0001_0000); // kernel releases, user still requests
    assert!(awake(&emu, "render"));
    emu.advance(3);
    assert_eq!(emu.read32(ack), 2);
    assert!(awake(&emu, "render"));
    emu.write32(req, 0x0002_0000); // last request released
    assert!(!awake(&emu, "render"), "no request bit: asleep");
    assert_eq!(emu.read32(ack), 2, "the ack clears only after the latency");
    emu.advance(2);
    assert_eq!(emu.read32(ack), 2);
    emu.advance(1);
    assert_eq!(emu.read32(ack), 0);
    assert_eq!(
        read_traced(&mut emu, addr(p, "OACTXCONTROL")).0,
        Outcome::Terminated
    );
}

#[test]
fn always_on_domain_needs_no_waking() {
    let p = &tgl::PROJECT;
    let (sel, mut emu) = tgl_register_in("MCR_SELECTOR", "aon");
    assert!(awake(&emu, "aon"));
    emu.write32(sel.address, mcr(false, 0, 3));
    assert_eq!(emu.read32(sel.address), mcr(false, 0, 3));
    assert_eq!(
        (last(&emu).outcome, last(&emu).domain),
        (Outcome::Ok, Some("aon"))
    );
    emu.advance(1000);
    assert!(awake(&emu, "aon"));
    assert!(!emu.domain_awake(p.domains.len() + 100), "no such domain");

    // Domains without request/ack registers and names no domain describes.
    let mut emu = emulator(&TINY, Sku::default());
    assert!(awake(&emu, "ghost"));
    emu.write32(GHOST_REG, 9);
    emu.write32(UNKNOWN_REG, 9);
    assert_eq!((emu.read32(GHOST_REG), emu.read32(UNKNOWN_REG)), (9, 9));
}

#[test]
fn request_registers_are_writable_while_asleep() {
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default());
    for d in p.domains.iter().filter(|d| !d.always_on) {
        let r = reg(p, d.request.expect("request"));
        assert_eq!(r.domain, None);
        emu.write32(r.address, 0x0001_0001);
        assert_eq!(last(&emu).outcome, Outcome::Ok, "{}", r.name);
        assert_eq!(emu.read32(r.address), 1);
    }
    assert_eq!((emu.counts().unclaimed + emu.counts().terminated), 0);
}

#[test]
fn absent_media_engine_never_acks() {
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default().without_vdbox(1).without_vebox(0));
    for name in ["vdbox0", "vdbox1", "vebox0", "vebox1"] {
        let req = addr(p, p.domain(name).and_then(|d| d.request).expect("req"));
        emu.write32(req, 0x0001_0001);
    }
    emu.advance(1000);
    assert!(awake(&emu, "vdbox0"));
    assert!(!awake(&emu, "vdbox1"));
    assert!(!awake(&emu, "vebox0"));
    assert!(awake(&emu, "vebox1"));
    let ack = addr(p, p.domain("vdbox1").and_then(|d| d.ack).expect("ack"));
    assert_eq!(emu.read32(ack), 0);
}

#[test]
fn hsw_one_render_domain_covers_the_gt() {
    let p = &hsw::PROJECT;
    assert_eq!(p.map.len(), 1);
    assert_eq!((p.map[0].start, p.map[0].end), (0, 0x3FFFF));
    let ctl = addr(p, "OACONTROL");
    let mut emu = emulator(p, Sku::default());
    emu.write32(ctl, 1);
    assert_eq!(last(&emu).outcome, Outcome::Terminated);
    assert_eq!(
        read_traced(&mut emu, 0x10000),
        (Outcome::Terminated, Some("render"))
    );
    assert_eq!(read_traced(&mut emu, 0x50000), (Outcome::Unclaimed, None));
    wake(&mut emu, "render");
    emu.write32(ctl, 1);
    assert_eq!(emu.read32(ctl), 1);
    assert_eq!(read_traced(&mut emu, 0x10000).0, Outcome::Unclaimed);
    // BDW the same.
    let bdw = &hal::bdw::PROJECT;
    let mut emu = emulator(bdw, Sku::default());
    assert!(!awake(&emu, "render"));
    wake(&mut emu, "render");
}

#[test]
fn poked_request_schedules_the_ack() {
    let mut emu = emulator(&TINY, Sku::default());
    assert!(emu.poke(PW_REQ, 1));
    emu.advance(3);
    assert!(awake(&emu, "pw"));
    assert!(emu.poke(PW_ACK, 0), "a hardware-side ack change");
    assert!(!awake(&emu, "pw"));
    assert!(emu.trace().is_empty(), "pokes are not traced");
}

// --------------------------------------------------------------- steering

#[test]
fn multicast_write_reaches_every_enabled_instance() {
    let (_, r, _, mut emu) = steering_rig(Sku::default().fuse_dss(2));
    emu.write32(r.address, 0x1234);
    let e = last(&emu);
    assert_eq!((e.outcome, e.instance), (Outcome::Ok, None));
    for i in 0..6 {
        let want = if i == 2 { 0 } else { 0x1234 };
        assert_eq!(emu.peek(r.address, i), Some(want), "instance {i}");
    }
    assert_eq!(emu.peek(r.address, 6), None);
}

#[test]
fn fused_off_instance_reads_zero_and_drops_writes() {
    let (p, r, sel, mut emu) = steering_rig(Sku::default().fuse_dss(2));
    emu.poke_instance(r.address, 2, 0x55);
    for multicast in [true, false] {
        emu.write32(sel, mcr(multicast, 0, 2));
        assert_eq!(emu.read32(r.address), 0);
        let e = last(&emu);
        assert_eq!((e.outcome, e.instance), (Outcome::FusedOff, Some(2)));
    }
    emu.write32(r.address, 0x99); // unicast to DSS 2
    assert_eq!(last(&emu).outcome, Outcome::FusedOff);
    assert_eq!(emu.peek(r.address, 2), Some(0x55));
    assert_eq!(emu.counts().of(Outcome::FusedOff), 3);
    // A slice other than 0 names no instance on TGL.
    emu.write32(sel, mcr(false, 1, 0));
    emu.read32(r.address);
    assert_eq!(
        (last(&emu).outcome, last(&emu).instance),
        (Outcome::FusedOff, Some(8))
    );
    // Nothing present at all: a multicast write reaches nobody.
    let mut emu = emulator(
        p,
        Sku {
            dss_enable: 0,
            ..Sku::default()
        },
    );
    wake_all(&mut emu);
    emu.write32(r.address, 1);
    assert_eq!(last(&emu).outcome, Outcome::FusedOff);
}

#[test]
fn unicast_write_hits_one_instance() {
    let (_, r, sel, mut emu) = steering_rig(Sku::default());
    emu.write32(sel, mcr(false, 0, 4));
    emu.write32(r.address, 0xABCD);
    assert_eq!(
        (last(&emu).outcome, last(&emu).instance),
        (Outcome::Ok, Some(4))
    );
    for i in 0..6 {
        let want = if i == 4 { 0xABCD } else { 0 };
        assert_eq!(emu.peek(r.address, i), Some(want));
    }
    assert_eq!(emu.read32(r.address), 0xABCD);
}

#[test]
fn reads_follow_slice_and_subslice_even_when_multicast() {
    let (_, r, sel, mut emu) = steering_rig(Sku::default());
    for i in 0..6 {
        assert!(emu.poke_instance(r.address, i, 0x100 + u64::from(i)));
    }
    assert_eq!(
        emu.read32(r.address),
        0x100,
        "reset steering: multicast, instance 0"
    );
    for sub in [3, 0, 5, 1] {
        emu.write32(sel, mcr(true, 0, sub));
        assert_eq!(emu.read32(r.address), 0x100 + sub);
        assert_eq!(last(&emu).instance, Some(sub));
    }
}

#[test]
fn l3bank_and_sqidi_presence() {
    let (p, _, sel, mut emu) = steering_rig(Sku {
        dss_enable: 0,
        ..Sku::default().fuse_l3bank(5)
    });
    let (l3, sq) = (repl(p, "l3bank"), repl(p, "sqidi"));
    emu.write32(l3.address, 7);
    emu.write32(sq.address, 9);
    for i in 0..8 {
        assert_eq!(emu.peek(l3.address, i), Some(if i == 5 { 0 } else { 7 }));
    }
    for i in 0..2 {
        assert_eq!(emu.peek(sq.address, i), Some(9), "SQIDI is always present");
    }
    emu.write32(sel, mcr(true, 0, 5));
    assert_eq!(read_traced(&mut emu, l3.address).0, Outcome::FusedOff);
    emu.write32(sel, mcr(true, 0, 1));
    assert_eq!(emu.read32(sq.address), 9);
}

#[test]
fn non_replicated_registers_ignore_steering() {
    let (p, _, sel, mut emu) = steering_rig(Sku::default().fuse_dss(2));
    let ctl = addr(p, "OAG_OACONTROL");
    for v in [mcr(false, 0, 2), mcr(true, 1, 7), mcr(false, 0, 0)] {
        emu.write32(sel, v);
        emu.write32(ctl, v >> 24 & 0x1d);
        assert_eq!(
            (last(&emu).outcome, last(&emu).instance),
            (Outcome::Ok, None)
        );
        assert_eq!(emu.read32(ctl), v >> 24 & 0x1d);
    }
}

#[test]
fn fuse_mirrors_read_what_the_sku_says() {
    let p = &tgl::PROJECT;
    let dss = addr(p, "MIRROR_FUSE_DSS_ENABLE");
    let l3 = addr(p, "MIRROR_FUSE_L3BANK_DISABLE");
    let mut emu = emulator(p, Sku::default());
    wake(&mut emu, "gt");
    assert_eq!((emu.read32(dss), emu.read32(l3)), (0x3F, 0));
    let sku = Sku::default().fuse_dss(2).fuse_l3bank(1).fuse_l3bank(5);
    let mut emu = emulator(p, sku);
    wake(&mut emu, "gt");
    assert_eq!((emu.read32(dss), emu.read32(l3)), (0x3B, 0x22));
    emu.write32(dss, 0x3F);
    assert_eq!(emu.read32(dss), 0x3B, "RO");
    assert_eq!(Sku::for_project(p).dss_enable, 0x3F);
    assert_eq!(Sku::for_project(p).vdbox_present, 0xFF);
    assert_eq!(Sku::for_project(p).vebox_present, 0xF);
    let exact = emulator(p, Sku::for_project(p).fuse_dss(0));
    assert_eq!(exact.peek(dss, 0), Some(0x3E));
}

// ------------------------------------------------------------------ trace

#[test]
fn trace_records_every_access_and_displays_it() {
    let p = &hsw::PROJECT;
    let ctl = addr(p, "OACONTROL");
    let mut emu = emulator(p, Sku::default());
    emu.write32(addr(p, "FORCEWAKE_MT"), 0x0001_0001);
    emu.advance(12);
    emu.write32(ctl, 0x335);
    emu.read32(ctl);
    emu.read32(0x50000);
    let t = emu.trace();
    assert_eq!(t.len(), 4);
    assert_eq!(
        t[1],
        TraceEntry {
            time: 12,
            addr: 0x2360,
            register: Some("OACONTROL"),
            value: 0x335,
            write: true,
            domain: Some("render"),
            instance: None,
            outcome: Outcome::Ok,
        }
    );
    let lines: Vec<String> = t.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        lines,
        [
            "t=0 write 0xa188 FORCEWAKE_MT = 0x10001 ok",
            "t=12 write 0x2360 OACONTROL = 0x335 [render] ok",
            "t=12 read 0x2360 OACONTROL = 0x335 [render] ok",
            "t=12 read 0x50000 - = 0x0 unclaimed",
        ]
    );
    for e in emu.trace() {
        println!("{e}");
    }

    let p = tgl_replicated();
    let mut emu = emulator(p, Sku::default().fuse_dss(2));
    wake(&mut emu, "render");
    let r = repl(p, "dss");
    emu.write32(addr(p, "MCR_SELECTOR"), mcr(false, 0, 2));
    emu.read32(r.address);
    assert_eq!(
        last(&emu).to_string(),
        format!(
            "t=3 read {:#x} {}[2] = 0x0 [render] fused-off",
            r.address, r.name
        )
    );
}

#[test]
fn tracing_off_still_counts() {
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default());
    emu.read32(0x4);
    assert_eq!(emu.trace().len(), 1, "tracing is on after construction");
    emu.set_tracing(false);
    emu.read32(0x4);
    emu.read32(addr(p, "MCR_SELECTOR"));
    assert_eq!(emu.trace().len(), 1);
    assert_eq!(emu.counts().accesses, 3);
    assert_eq!((emu.counts().unclaimed + emu.counts().terminated), 2);
    let taken = emu.take_trace();
    assert_eq!(taken.len(), 1);
    assert!(emu.trace().is_empty());
    let _ = emu.peek(addr(p, "MCR_SELECTOR"), 0);
    assert_eq!(emu.counts().accesses, 3, "peek is not an access");
}

#[test]
fn same_operations_give_the_same_trace() {
    fn run() -> (Vec<TraceEntry>, Vec<Option<u64>>) {
        let p = tgl_replicated();
        let mut emu = emulator(p, Sku::default().fuse_dss(1).with_wake_latency(5));
        let mut rng = perfregs_testkit::XorShift(perfregs_testkit::XorShift::SEED);
        for i in 0..3000u64 {
            let x = rng.next();
            let r = p.registers[(x % p.registers.len() as u64) as usize];
            match i % 5 {
                0 => emu.write32(r.address, (x >> 32) as u32),
                1 => emu.advance(x % 4),
                4 => emu.write32(addr(p, "FORCEWAKE_GT"), 0x0001_0000 | (x as u32 & 1)),
                _ => {
                    emu.read32(r.address);
                }
            }
        }
        let peeks = p.registers.iter().map(|r| emu.peek(r.address, 0)).collect();
        (emu.take_trace(), peeks)
    }
    let a = run();
    assert_eq!(a.0.len(), 2400);
    assert_eq!(a, run());
}

// ------------------------------------------------------------------ index

#[test]
fn direct_index_agrees_with_binary_search() {
    for p in [&tgl::PROJECT, &hsw::PROJECT, &hal::bdw::PROJECT, &TINY] {
        let emu = emulator(p, Sku::default());
        let top = p.map.iter().map(|r| r.end).max().unwrap_or(0) + 0x2000;
        let edges = p
            .map
            .iter()
            .flat_map(|r| [r.start, r.end, r.end + 1, r.start.wrapping_sub(1)]);
        let mut n = 0;
        for a in (0..top.min(0x30_0000)).step_by(4).chain(edges) {
            assert_eq!(
                emu.row_domain_of(a),
                p.row_at(a).and_then(|r| r.wake),
                "{} {a:#x}",
                p.name
            );
            n += 1;
        }
        assert!(n > 0);
        for r in p.registers {
            if emu.register_at(r.address).map(|x| x.name) == Some(r.name) {
                assert_eq!(
                    domain_of(&emu, r.address),
                    r.domain,
                    "{} {}",
                    p.name,
                    r.name
                );
            }
        }
    }
}

#[test]
fn every_project_survives_edge_cases() {
    for p in hal::PROJECTS.iter().copied().chain([&TINY]) {
        let mut emu = emulator(p, Sku::default());
        for a in [
            0,
            1,
            2,
            3,
            0xFFF,
            0x1000,
            1 << 32,
            u64::MAX,
            u64::MAX - 3,
            u64::MAX - 4,
        ] {
            emu.write32(a, u32::MAX);
            emu.read32(a);
            emu.write64(a, u64::MAX);
            emu.read64(a);
            emu.peek(a, 0);
            emu.peek(a, u32::MAX);
            emu.poke(a, u64::MAX);
            emu.poke_instance(a, u32::MAX, 1);
        }
        emu.advance(u64::MAX);
        emu.advance(u64::MAX);
        wake_all(&mut emu);
        assert_eq!(emu.now(), u64::MAX);
        assert_eq!(emu.counts().accesses, emu.trace().len());
        let snapshot = emu.clone();
        emu.write32(0, 1);
        assert_eq!(snapshot.counts().accesses + 1, emu.counts().accesses);
        let _ = format!("{emu:?}");
    }
    // Odd SKUs.
    let p = tgl_replicated();
    for sku in [
        Sku {
            dss_enable: 0,
            l3bank_disable: u64::MAX,
            vdbox_present: 0,
            vebox_present: 0,
            xecore_enable: 0,
            wake_latency: u64::MAX,
        },
        Sku::default().fuse_dss(99).with_wake_latency(0),
    ] {
        let mut emu = emulator(p, sku);
        wake_all(&mut emu);
        for r in p.registers {
            emu.write32(r.address, u32::MAX);
            emu.read32(r.address);
        }
    }
}

#[test]
fn zero_latency_acks_at_the_next_advance() {
    let p = &tgl::PROJECT;
    let mut emu = emulator(p, Sku::default().with_wake_latency(0));
    emu.write32(addr(p, "FORCEWAKE_GT"), 0x0001_0001);
    assert!(!awake(&emu, "gt"), "nothing changes without advance");
    emu.advance(0);
    assert!(awake(&emu, "gt"));
}

#[test]
fn bus_pause_is_one_tick() {
    let p = &tgl::PROJECT;
    let ack = addr(p, "FORCEWAKE_ACK_GT");
    let mut emu = emulator(p, Sku::default());
    Bus::<Mmio>::write32(&mut emu, addr(p, "FORCEWAKE_GT"), 0x0001_0001);
    let mut polls = 0;
    while Bus::<Mmio>::read32(&mut emu, ack) & 1 == 0 && polls < 100 {
        Bus::<Mmio>::pause(&mut emu);
        polls += 1;
    }
    assert_eq!((polls, emu.now()), (3, 3));
    assert!(awake(&emu, "gt"));
}

/// What hardware does silently is reported: a read while the domain sleeps,
/// a write where no register decodes, a read of a fused-off instance; one
/// warning each, in order, with the time, the register and the domain.
#[test]
fn silent_hardware_failures_are_warnings() {
    let p = tgl_replicated();
    let r = repl(p, "dss");
    let sel = addr(p, "MCR_SELECTOR");
    let mut emu = emulator(p, Sku::default().fuse_dss(2));
    assert!(emu.warnings().is_empty());
    let oar = reg(p, "OAR_OACONTROL");
    assert_eq!(emu.read32(oar.address), 0); // render asleep
    wake_all(&mut emu);
    // No register, in an always-on row or outside every row.
    let hole = (0x10u64..0x1000)
        .step_by(4)
        .find(|&a| emu.register_at(a).is_none() && domain_of(&emu, a).is_none_or(|d| d == "aon"))
        .expect("a hole");
    emu.write32(hole, 7);
    emu.write32(sel, mcr(false, 0, 2));
    assert_eq!(emu.read32(r.address), 0); // DSS 2 fused off
    let w = emu.warnings();
    assert_eq!(w.len(), 3, "{w:#?}");
    assert_eq!(
        w[0].kind,
        WarningKind::Asleep {
            addr: oar.address,
            register: Some("OAR_OACONTROL"),
            domain: Some("render"),
            write: false
        }
    );
    assert_eq!(
        w[1].kind,
        WarningKind::Unclaimed {
            addr: hole,
            write: true
        }
    );
    assert!(matches!(
        w[2].kind,
        WarningKind::FusedOff {
            instance: Some(2),
            write: false,
            ..
        }
    ));
    assert!(
        w[0].to_string()
            .contains("while power domain render sleeps"),
        "{}",
        w[0]
    );
    assert_eq!(emu.take_warnings().len(), 3);
    assert!(emu.warnings().is_empty());
}

/// The list is bounded: beyond [`MAX_WARNINGS`] warnings are counted.
#[test]
fn warnings_are_bounded_and_counted() {
    let p = &hsw::PROJECT;
    let mut emu = emulator(p, Sku::default());
    let oacontrol = reg(p, "OACONTROL").address;
    for _ in 0..MAX_WARNINGS + 10 {
        emu.read32(oacontrol); // render asleep
    }
    assert_eq!(emu.warnings().len(), MAX_WARNINGS);
    assert_eq!(emu.counts().warnings_dropped, 10);
}

/// A force-wake row that wakes two domains (CHV's and Gen9's
/// `FORCEWAKE_RENDER | FORCEWAKE_MEDIA` rows): an access passes only while
/// both are awake, and one made with a single domain awake is terminated
/// with a warning naming the sleeping one.
#[test]
fn a_two_domain_row_needs_both_domains_awake() {
    let p = &hal::chv::PROJECT;
    let r = p
        .registers
        .iter()
        .find(|r| r.domain == Some("render+media") && r.replication.is_none())
        .expect("a CHV register in a render+media row");
    for (first, second) in [("render", "media"), ("media", "render")] {
        let mut emu = emulator(p, Sku::default());
        emu.poke(r.address, 0x1);
        wake(&mut emu, first);
        assert_eq!(emu.read32(r.address), 0, "{first} alone: terminated");
        let e = last(&emu);
        assert_eq!(
            (e.outcome, e.domain),
            (Outcome::Terminated, Some(second)),
            "{first} awake: the warning names {second}"
        );
        let w = emu.take_warnings();
        assert_eq!(w.len(), 1, "{w:#?}");
        assert!(
            w[0].to_string()
                .contains(&format!("while power domain {second} sleeps")),
            "{}",
            w[0]
        );
        wake(&mut emu, second);
        assert_eq!(emu.read32(r.address), 0x1, "both awake");
        assert_eq!(last(&emu).domain, Some("render+media"));
        assert!(emu.warnings().is_empty());
    }
    // An address with no register takes its row's pair (SKL 0x9400..0x97FF).
    let p = &hal::skl::PROJECT;
    let mut emu = emulator(p, Sku::default());
    let hole = (0x9400u64..0x9800)
        .step_by(4)
        .find(|&a| emu.register_at(a).is_none())
        .expect("a hole");
    assert_eq!(emu.row_domain_of(hole), Some("render+media"));
    wake(&mut emu, "render");
    assert_eq!(
        read_traced(&mut emu, hole),
        (Outcome::Terminated, Some("media"))
    );
    wake(&mut emu, "media");
    assert_eq!(read_traced(&mut emu, hole).0, Outcome::Unclaimed);
}
