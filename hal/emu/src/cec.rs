//! Custom event creation (CEC) logic feeding the B counters, the
//! synthetic NOA signal source it compares and the test signals of the
//! Boolean stage.
//!
//! Field layout per Linux i915 `OACEC_*`: CECn-0
//! holds the compare function (2:0), the compare value (18:3) and the input
//! select (20:19); CECn-1 the mask (15:0, a 1 excludes that input bit) and the
//! "considerations" (31:16). CECn drives Bn.
//!
//! The model is documented on [`NoaSource`].

use std::vec::Vec;

/// Patterns repeating within this many GPU clocks are counted with a prefix
/// table instead of clock by clock.
pub(crate) const MAX_PERIOD: u64 = 4096;

/// Number of CEC units / B counters.
pub(crate) const CECS: usize = 8;

/// The generator of one NOA signal bit, as a function of the GPU clock
/// number `c` (the emulator's free-running GPU clock count; the model
/// keeps counting past 2^64 clocks, where the 64-bit GPU clock wraps, so
/// periodic bits keep their period there).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoaBit {
    /// Always this value.
    Constant(bool),
    /// A clock divider: the bit is `(c / k) & 1` (0 for clocks `0..k`, 1 for
    /// `k..2k`, ...), i.e. it toggles every `k` GPU clocks. `k == 0` is a
    /// constant 0.
    Divider(u64),
    /// A deterministic pseudo-random bit: the top bit of an xorshift64*
    /// step applied to `seed ^ (c * 0x9E37_79B9_7F4A_7C15)` (stateless, so
    /// any clock can be evaluated directly; the same seed gives the same
    /// pattern).
    Random(u64),
    /// A residue class of the clock: the bit is 1 when `c % period ==
    /// residue` (`period == 0` or `residue >= period`: a constant 0). The
    /// test signals of the Boolean stage are of this kind
    /// ([`NoaSource::test_signals`]).
    Residue {
        /// The period in GPU clocks.
        period: u32,
        /// The clock residue on which the bit is 1.
        residue: u32,
    },
}

impl NoaBit {
    /// The bit's value at GPU clock `c`.
    #[inline]
    pub fn at(self, c: u64) -> bool {
        self.at_clock(u128::from(c))
    }

    /// The bit's value at clock `c` counted from 0 without wrapping (the
    /// model's CEC clock: the 64-bit GPU clock's wraps do not break a
    /// divider's or residue's period; a pseudo-random bit hashes the low
    /// 64 bits).
    #[inline]
    pub(crate) fn at_clock(self, c: u128) -> bool {
        match self {
            NoaBit::Constant(b) => b,
            NoaBit::Divider(0) => false,
            NoaBit::Divider(k) => (c / u128::from(k)) & 1 != 0,
            NoaBit::Random(seed) => mix(seed, c as u64) >> 63 != 0,
            NoaBit::Residue { period, residue } => {
                period != 0 && residue < period && c % u128::from(period) == u128::from(residue)
            }
        }
    }

    /// `Some(value)` when the bit never changes.
    fn constant(self) -> Option<bool> {
        match self {
            NoaBit::Constant(b) => Some(b),
            NoaBit::Divider(0) => Some(false),
            NoaBit::Residue { period, residue } if residue >= period => Some(false),
            NoaBit::Residue { period: 1, .. } => Some(true),
            _ => None,
        }
    }

    /// The bit's period in clocks (`None`: not periodic or too long).
    fn period(self) -> Option<u64> {
        match self {
            NoaBit::Constant(_) | NoaBit::Divider(0) => Some(1),
            NoaBit::Divider(k) => k.checked_mul(2),
            NoaBit::Random(_) => None,
            NoaBit::Residue { period, residue } if residue >= period => Some(1),
            NoaBit::Residue { period, .. } => Some(u64::from(period)),
        }
    }
}

/// One xorshift64* step on a state derived from `seed` and clock `c`.
#[inline]
fn mix(seed: u64, c: u64) -> u64 {
    let mut x = seed ^ c.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
    if x == 0 {
        x = 0x9E37_79B9_7F4A_7C15;
    }
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    x.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// The synthetic NOA signal source: 16 signal bits, each with its own
/// [`NoaBit`] generator. The default drives every bit constant 0 (so with
/// the reset CEC programming, any-equal against 0 with nothing masked, every
/// B counter counts every GPU clock while counting is enabled).
///
/// Field layout per Linux i915 `OACEC_*`: CECn-0
/// holds the compare function (2:0), the compare value (18:3) and the input
/// select (20:19); CECn-1 the mask (15:0, a 1 excludes that input bit) and
/// the "considerations" (31:16). CECn drives Bn, which adds one per GPU
/// clock (not per tick) on which CECn's predicate holds, while the OA
/// counters count (see "OA unit" in the [crate documentation](crate)).
///
/// # The CEC model
///
/// - **Input.** Select 0: the 16-bit NOA signal vector of the current GPU
///   clock ([`NoaSource`]). Select 1: "the previous CEC's output": a vector
///   whose bit 0 is CECn-1's result at the same clock and whose other bits
///   are 0 (CEC0 has no previous CEC: its input is 0). Select 2: the
///   16-bit vector of the Boolean stage. The emulator knows it only when
///   the NOA mux routes the test-signal generator there (all the writes of
///   the project's `noa_test_signal_routing` table are in force and the NOA
///   enable bit is set): then it is [`NoaSource::test_signals`], whose bits
///   3..5 are defined ([`TEST_SIGNAL_BITS`]). Otherwise, for a comparison
///   that keeps a bit outside those, for select 3 (undocumented) and for a
///   select-1 unit whose previous CEC is unknown, the input is unknown: Bn
///   counts nothing and the OA model records
///   [`OaWarningKind::CecInputUnknown`](crate::OaWarningKind::CecInputUnknown)
///   once per programming (never a made-up count). A comparison that
///   reads no input bit (function 7, or mask 0xFFFF) holds or fails the
///   same on any input and counts accordingly, whatever the select.
/// - **Compare.** With `keep = !mask`, `s = signals & keep` and
///   `v = value & keep` (both as unsigned 16-bit numbers): 0 any-equal: some
///   kept bit of `s` equals the same bit of `v` (false when every bit is
///   masked); 1 `s > v`; 2 `s == v`; 3 `s >= v`; 4 `s < v`; 5 `s != v`;
///   6 `s <= v`; 7 always true. The PRM example: CECn-0 = 0x3 (>= 0) with
///   CECn-1 = 0xFFFE holds on every clock; CECn-0 = 0x4 (< 0) never holds.
/// - **Considerations** (CECn-1 31:16) are not modelled (ignored).
/// - **Speed.** A predicate is *constant* when no input bit it compares can
///   change (all kept NOA bits are [`NoaBit::Constant`], or the previous CEC
///   is constant) or when the comparison cannot change over the reachable
///   inputs (e.g. `>= 0`, `< 0`, an `==` value no input can reach); constant
///   predicates count in bulk (`n` clocks at once). When every dynamic NOA
///   bit that a non-constant predicate reads is a [`NoaBit::Divider`] or
///   [`NoaBit::Residue`] and the pattern repeats within 4096 clocks, counts come from a
///   per-period prefix table (O(1) per call). Otherwise each GPU clock is
///   evaluated (pseudo-random bits, long periods).
///
/// ```
/// use perfregs_emu::{NoaBit, NoaSource};
/// let noa = NoaSource::new().constant(2, true).divider(0, 1).random(5, 42);
/// assert_eq!(noa.value_at(0) & 0b101, 0b100);
/// assert_eq!(noa.value_at(1) & 0b101, 0b101);
/// assert_eq!(noa.generator(5), Some(NoaBit::Random(42)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoaSource {
    bits: [NoaBit; 16],
}

impl Default for NoaSource {
    fn default() -> Self {
        NoaSource {
            bits: [NoaBit::Constant(false); 16],
        }
    }
}

impl NoaSource {
    /// Every bit constant 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// Drive signal bit `bit` (0..=15; others are ignored) with `generator`.
    #[must_use]
    pub fn with(mut self, bit: u32, generator: NoaBit) -> Self {
        if let Some(b) = self.bits.get_mut(bit as usize) {
            *b = generator;
        }
        self
    }

    /// Signal bit `bit` is always `value`.
    #[must_use]
    pub fn constant(self, bit: u32, value: bool) -> Self {
        self.with(bit, NoaBit::Constant(value))
    }

    /// Signal bit `bit` toggles every `k` GPU clocks ([`NoaBit::Divider`]).
    #[must_use]
    pub fn divider(self, bit: u32, k: u64) -> Self {
        self.with(bit, NoaBit::Divider(k))
    }

    /// Signal bit `bit` is 1 on the GPU clocks `c` with `c % period ==
    /// residue` ([`NoaBit::Residue`]).
    #[must_use]
    pub fn residue(self, bit: u32, period: u32, residue: u32) -> Self {
        self.with(bit, NoaBit::Residue { period, residue })
    }

    /// The test signals of the Boolean stage, as the emulator derives them
    /// (bits [`TEST_SIGNAL_BITS`]; the others are not known and are 0 here):
    /// bit 3 is 1 on odd clocks, bit 4 on clocks `c % 3 == 1`, bit 5 on
    /// clocks `c % 3 == 2`.
    ///
    /// No public source describes the test-signal generator. The values are
    /// derived from IGT's TestOa configuration (CECn-0 / CECn-1 of B3..B7,
    /// select 2) and its expectations (B3 = clock/2, B4 = B5 = clock/3,
    /// B6 = clock/6, B7 = 2 x clock/3):
    ///
    /// - CEC3 0x00100002 / 0xFFF7: equal, value 0, keeps bit 3: bit 3 is 0
    ///   half the clocks;
    /// - CEC4 0x00100002 / 0xFFCF: bits 4 and 5 both 0 a third of the clocks;
    /// - CEC5 0x00100082 / 0xFFEF: value 0x10, bit 4 is 1 a third of the clocks;
    /// - CEC6 0x001000C2 / 0xFFE7: value 0x18, bits 3 and 4 both 1 a sixth;
    /// - CEC7 0x00100001 / 0xFFE7: greater than 0 on bits 3 and 4: bit 3 or
    ///   bit 4 set two thirds of the clocks.
    ///
    /// The generator above meets all five over every 6 clocks (bit 3 and
    /// bit 4 both 1 only at `c % 6 == 1`; bit 3 or 4 set at 1, 3, 4, 5).
    /// Other generators meet them too; the phases are not observable in
    /// report deltas beyond +-1.
    ///
    /// ```
    /// use perfregs_emu::NoaSource;
    /// let t = NoaSource::test_signals();
    /// let v: Vec<u16> = (0..6).map(|c| t.value_at(c) >> 3).collect();
    /// assert_eq!(v, [0b000, 0b011, 0b100, 0b001, 0b010, 0b101]);
    /// ```
    pub fn test_signals() -> Self {
        Self::new()
            .residue(3, 2, 1)
            .residue(4, 3, 1)
            .residue(5, 3, 2)
    }

    /// Signal bit `bit` follows a seeded pseudo-random pattern
    /// ([`NoaBit::Random`]).
    #[must_use]
    pub fn random(self, bit: u32, seed: u64) -> Self {
        self.with(bit, NoaBit::Random(seed))
    }

    /// The generator of signal bit `bit` (`None` beyond bit 15).
    pub fn generator(&self, bit: u32) -> Option<NoaBit> {
        self.bits.get(bit as usize).copied()
    }

    /// The 16-bit signal vector at GPU clock `c`.
    pub fn value_at(&self, c: u64) -> u16 {
        self.bits
            .iter()
            .enumerate()
            .fold(0u16, |v, (i, g)| v | (u16::from(g.at(c)) << i))
    }

    /// (bits that change, values of the bits that do not).
    fn split(&self) -> (u16, u16) {
        let mut dynamic = 0u16;
        let mut konst = 0u16;
        for (i, g) in self.bits.iter().enumerate() {
            match g.constant() {
                Some(b) => konst |= u16::from(b) << i,
                None => dynamic |= 1 << i,
            }
        }
        (dynamic, konst)
    }

    /// Value of the bits in `dynamic` at clock `c` (others 0).
    #[inline]
    fn dynamic_at(&self, dynamic: u16, c: u128) -> u16 {
        let mut v = 0u16;
        let mut m = dynamic;
        while m != 0 {
            let i = m.trailing_zeros();
            if self.bits.get(i as usize).is_some_and(|g| g.at_clock(c)) {
                v |= 1 << i;
            }
            m &= m - 1;
        }
        v
    }
}

/// The bits of the Boolean stage the test signals define
/// ([`NoaSource::test_signals`]): 3, 4 and 5.
pub const TEST_SIGNAL_BITS: u16 = 0b11_1000;

/// Why a CEC unit's input is unknown (its B counter counts nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CecUnknown {
    /// Select 2 while the NOA mux does not route the test signals to the
    /// Boolean stage (or NOA is not enabled).
    BooleanNotRouted,
    /// Select 2 with the test signals routed, but the comparison keeps a
    /// Boolean-stage bit the test signals do not define.
    BooleanBitUndefined,
    /// Select 3 (no public meaning).
    Select3,
    /// Select 1 (previous CEC's output) after a unit whose input is unknown.
    PreviousUnknown,
}

/// The programming of one CEC unit, decoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CecConfig {
    /// The unit's registers exist on the project.
    pub present: bool,
    /// Compare function (CECn-0 2:0).
    pub func: u8,
    /// Compare value (CECn-0 18:3).
    pub value: u16,
    /// Input select (CECn-0 20:19).
    pub select: u8,
    /// Mask (CECn-1 15:0): a 1 excludes the input bit.
    pub mask: u16,
}

/// The compare of the module documentation.
#[inline]
pub(crate) fn compare(func: u8, signals: u16, value: u16, mask: u16) -> bool {
    let keep = !mask;
    let s = signals & keep;
    let v = value & keep;
    match func & 7 {
        0 => !(s ^ v) & keep != 0,
        1 => s > v,
        2 => s == v,
        3 => s >= v,
        4 => s < v,
        5 => s != v,
        6 => s <= v,
        _ => true,
    }
}

/// Whether `compare(func, s, value, mask)` is the same for every input
/// `s = k | d` with `d` any subset of `dyn_bits` (`k`, `dyn_bits` already
/// masked, disjoint); `Some(result)` if so.
fn constant_result(func: u8, k: u16, dyn_bits: u16, value: u16, mask: u16) -> Option<bool> {
    if dyn_bits == 0 || func & 7 == 7 {
        return Some(compare(func, k, value, mask));
    }
    let keep = !mask;
    let v = value & keep;
    match func & 7 {
        // Monotone in s: constant iff equal at both ends of [k, k | d].
        1 | 3 | 4 | 6 => {
            let lo = compare(func, k, value, mask);
            let hi = compare(func, k | dyn_bits, value, mask);
            (lo == hi).then_some(lo)
        }
        // v reachable iff its constant part matches k.
        2 => ((v & !dyn_bits) != k).then_some(false),
        5 => ((v & !dyn_bits) != k).then_some(true),
        // Any-equal: a constant kept bit that already equals decides it;
        // otherwise the dynamic bits can make it either way.
        _ => {
            let const_bits = keep & !dyn_bits;
            (!(k ^ v) & const_bits != 0).then_some(true)
        }
    }
}

/// The per-clock counting plan of all eight CEC units for one programming
/// and one NOA source.
#[derive(Clone, Debug)]
pub(crate) struct CecPlan {
    /// The programming the plan was built for.
    pub cfg: [CecConfig; CECS],
    /// The NOA source the plan was built for.
    pub noa: NoaSource,
    /// The Boolean stage's vector the plan was built for (`None`: unknown).
    pub boolean: Option<NoaSource>,
    /// Constant result per unit (`None`: depends on the clock).
    konst: [Option<bool>; CECS],
    /// Per unit: why its input is unknown (it counts nothing).
    unknown: [Option<CecUnknown>; CECS],
    /// NOA bits a non-constant unit reads.
    dyn_noa: u16,
    /// Constant NOA bit values.
    const_noa: u16,
    /// Boolean-stage bits a non-constant unit reads.
    dyn_bool: u16,
    /// Constant Boolean-stage bit values.
    const_bool: u16,
    /// The Boolean stage's generators (all constant 0 when unknown).
    bool_src: NoaSource,
    /// Every unit is constant.
    all_const: bool,
    /// Prefix table for periodic patterns.
    periodic: Option<Periodic>,
}

/// Counts over one period of a periodic pattern.
#[derive(Clone, Debug)]
struct Periodic {
    len: u64,
    /// `prefix[i][n]`: clocks in `0..i` of the period where unit n holds
    /// (`len + 1` entries).
    prefix: Vec<[u32; CECS]>,
}

impl CecPlan {
    /// Plan counting for `cfg` fed by `noa` (select 0) and `boolean`
    /// (select 2: the Boolean stage's vector with its defined bits; `None`:
    /// unknown).
    pub(crate) fn new(
        cfg: [CecConfig; CECS],
        noa: &NoaSource,
        boolean: Option<(&NoaSource, u16)>,
    ) -> Self {
        let (noa_dyn, noa_const) = noa.split();
        let (bool_src, known) = match boolean {
            Some((b, k)) => (b.clone(), k),
            None => (NoaSource::new(), 0),
        };
        let (bool_dyn, bool_const) = bool_src.split();
        let mut konst = [Some(false); CECS];
        let mut unknown = [None; CECS];
        let mut dyn_noa = 0u16;
        let mut dyn_bool = 0u16;
        for n in 0..CECS {
            let c = cfg[n];
            let prev = if n == 0 { Some(false) } else { konst[n - 1] };
            let prev_unknown = n > 0 && unknown[n - 1].is_some();
            let mut why = None;
            let r = if !c.present {
                Some(false)
            } else if c.func & 7 == 7 || c.mask == 0xFFFF {
                // Reads no input bit: the same on any input, known or not.
                Some(compare(c.func, 0, c.value, c.mask))
            } else {
                match c.select {
                    0 => {
                        let d = noa_dyn & !c.mask;
                        let r = constant_result(c.func, noa_const & !c.mask, d, c.value, c.mask);
                        if r.is_none() {
                            dyn_noa |= d;
                        }
                        r
                    }
                    1 if prev_unknown => {
                        why = Some(CecUnknown::PreviousUnknown);
                        Some(false)
                    }
                    1 => match prev {
                        Some(p) => Some(compare(c.func, u16::from(p), c.value, c.mask)),
                        None => constant_result(c.func, 0, 1 & !c.mask, c.value, c.mask),
                    },
                    2 if boolean.is_none() => {
                        why = Some(CecUnknown::BooleanNotRouted);
                        Some(false)
                    }
                    2 if !c.mask & !known != 0 => {
                        why = Some(CecUnknown::BooleanBitUndefined);
                        Some(false)
                    }
                    2 => {
                        let d = bool_dyn & !c.mask;
                        let r = constant_result(c.func, bool_const & !c.mask, d, c.value, c.mask);
                        if r.is_none() {
                            dyn_bool |= d;
                        }
                        r
                    }
                    _ => {
                        why = Some(CecUnknown::Select3);
                        Some(false)
                    }
                }
            };
            konst[n] = r;
            unknown[n] = why;
        }
        // A dynamic select-1 unit reads whatever its chain reads: the union
        // of dynamic NOA and Boolean bits already covers it.
        let all_const = konst.iter().all(Option::is_some);
        let mut plan = CecPlan {
            cfg,
            noa: noa.clone(),
            boolean: boolean.map(|(b, _)| b.clone()),
            konst,
            unknown,
            dyn_noa,
            const_noa: noa_const,
            dyn_bool,
            const_bool: bool_const,
            bool_src,
            all_const,
            periodic: None,
        };
        if !all_const {
            plan.periodic = plan.period().map(|len| plan.prefix_table(len));
        }
        plan
    }

    /// The units whose input is unknown (they count nothing), and why.
    pub(crate) fn unknown(&self) -> impl Iterator<Item = (usize, CecUnknown)> + '_ {
        self.unknown
            .iter()
            .enumerate()
            .filter_map(|(n, u)| u.map(|u| (n, u)))
    }

    /// The common period of the dynamic NOA and Boolean bits read, if
    /// short enough.
    fn period(&self) -> Option<u64> {
        let mut len = 1u64;
        for (src, mut m) in [(&self.noa, self.dyn_noa), (&self.bool_src, self.dyn_bool)] {
            while m != 0 {
                let i = m.trailing_zeros();
                let p = src.generator(i)?.period()?;
                len = lcm(len, p)?;
                if len > MAX_PERIOD {
                    return None;
                }
                m &= m - 1;
            }
        }
        Some(len)
    }

    fn prefix_table(&self, len: u64) -> Periodic {
        let mut prefix = Vec::with_capacity(len as usize + 1);
        let mut acc = [0u32; CECS];
        prefix.push(acc);
        for c in 0..len {
            let hold = self.eval(u128::from(c));
            for (a, h) in acc.iter_mut().zip(hold) {
                *a += u32::from(h);
            }
            prefix.push(acc);
        }
        Periodic { len, prefix }
    }

    /// Every unit's result at GPU clock `c`.
    #[inline]
    fn eval(&self, c: u128) -> [bool; CECS] {
        let signals = self.const_noa | self.noa.dynamic_at(self.dyn_noa, c);
        let boolean = if self.dyn_bool == 0 {
            self.const_bool
        } else {
            self.const_bool | self.bool_src.dynamic_at(self.dyn_bool, c)
        };
        let mut out = [false; CECS];
        let mut prev = false;
        for (n, o) in out.iter_mut().enumerate() {
            let r = match self.konst[n] {
                Some(b) => b,
                None => {
                    let cfg = self.cfg[n];
                    let input = match cfg.select {
                        1 => u16::from(prev),
                        2 => boolean,
                        _ => signals,
                    };
                    compare(cfg.func, input, cfg.value, cfg.mask)
                }
            };
            *o = r;
            prev = r;
        }
        out
    }

    /// Add to `out[n]` the clocks in `c0 .. c0 + clocks` (the CEC clock,
    /// counted without wrapping at 2^64, see [`NoaBit::at_clock`]) where
    /// unit n holds.
    pub(crate) fn count(&self, c0: u128, clocks: u128, out: &mut [u128; CECS]) {
        if clocks == 0 {
            return;
        }
        for (o, k) in out.iter_mut().zip(self.konst) {
            if k == Some(true) {
                *o += clocks;
            }
        }
        if self.all_const {
            return;
        }
        if let Some(p) = self
            .periodic
            .as_ref()
            .filter(|p| clocks > u128::from(p.len))
        {
            let at = |x: u128, n: usize| -> u128 {
                let len = u128::from(p.len);
                let full = p.prefix.last().map_or(0, |t| u128::from(t[n]));
                let part = p
                    .prefix
                    .get((x % len) as usize)
                    .map_or(0, |t| u128::from(t[n]));
                (x / len) * full + part
            };
            // From c0's phase (no overflow: clocks < 2^128 - 2^65).
            let a = c0 % u128::from(p.len);
            let b = a.saturating_add(clocks);
            for (n, o) in out.iter_mut().enumerate() {
                if self.konst[n].is_none() {
                    *o += at(b, n) - at(a, n);
                }
            }
            return;
        }
        for i in 0..clocks {
            let hold = self.eval(c0.wrapping_add(i));
            for (n, o) in out.iter_mut().enumerate() {
                if self.konst[n].is_none() && hold[n] {
                    *o += 1;
                }
            }
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u64, b: u64) -> Option<u64> {
    if a == 0 || b == 0 {
        return Some(a.max(b));
    }
    (a / gcd(a, b)).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(func: u8, value: u16, select: u8, mask: u16) -> CecConfig {
        CecConfig {
            present: true,
            func,
            value,
            select,
            mask,
        }
    }

    #[test]
    fn prm_example_and_its_opposite() {
        // CECn-0 = 0x3: function 3 (>=), value 0; CECn-1 = 0xFFFE.
        assert!(compare(3, 0, 0, 0xFFFE) && compare(3, 1, 0, 0xFFFE));
        assert!(!compare(4, 0, 0, 0xFFFE) && !compare(4, 1, 0, 0xFFFE));
        let noa = NoaSource::new().random(0, 7);
        let mut c = [cfg(0, 0, 3, 0); CECS];
        c[0] = cfg(3, 0, 0, 0xFFFE);
        c[1] = cfg(4, 0, 0, 0xFFFE);
        let plan = CecPlan::new(c, &noa, None);
        assert_eq!(plan.konst[0], Some(true));
        assert_eq!(plan.konst[1], Some(false));
        let mut out = [0u128; CECS];
        plan.count(5, 1000, &mut out);
        assert_eq!(out[0], 1000);
        assert_eq!(out[1], 0);
    }

    #[test]
    fn constant_detection_agrees_with_enumeration() {
        // All subsets of three dynamic bits, every function, a few values.
        let d = 0b1010_0001u16;
        for func in 0..8u8 {
            for value in [0u16, 1, 0x20, 0xA1, 0xFF, 0x100, 0xFFFF] {
                for mask in [0u16, 0xFF00, 0xFFFE, 0xFF5E, 0xFFFF] {
                    for k in [0u16, 0x0E, 0x5E] {
                        let k = k & !mask & !d;
                        let dm = d & !mask;
                        let mut seen = [false; 2];
                        let mut sub = dm;
                        loop {
                            seen[usize::from(compare(func, k | sub, value, mask))] = true;
                            if sub == 0 {
                                break;
                            }
                            sub = (sub - 1) & dm;
                        }
                        let truth = match seen {
                            [true, false] => Some(false),
                            [false, true] => Some(true),
                            _ => None,
                        };
                        assert_eq!(
                            constant_result(func, k, dm, value, mask),
                            truth,
                            "func {func} value {value:#x} mask {mask:#x} k {k:#x}"
                        );
                    }
                }
            }
        }
    }

    /// `count` over `n` clocks from `c0` equals the sum of `eval` clock by
    /// clock, for each `(c0, n)`.
    fn counts_match_clock_by_clock(plan: &CecPlan, windows: &[(u128, u128)]) {
        for &(c0, n) in windows {
            let mut fast = [0u128; CECS];
            plan.count(c0, n, &mut fast);
            let mut slow = [0u128; CECS];
            for i in 0..n {
                for (s, h) in slow.iter_mut().zip(plan.eval(c0 + i)) {
                    *s += u128::from(h);
                }
            }
            assert_eq!(fast, slow, "c0 {c0} n {n}");
        }
    }

    #[test]
    fn periodic_counts_match_clock_by_clock() {
        let noa = NoaSource::new()
            .divider(0, 1)
            .divider(1, 3)
            .constant(2, true);
        let mut c = [CecConfig::default(); CECS];
        for (n, x) in c.iter_mut().enumerate() {
            *x = cfg(n as u8, 0b101, 0, 0xFFF8);
        }
        c[7] = cfg(2, 1, 1, 0xFFFE); // counts when CEC6 holds
        let plan = CecPlan::new(c, &noa, None);
        assert!(plan.periodic.is_some());
        // Across 2^64 too (the CEC clock does not wrap there).
        counts_match_clock_by_clock(
            &plan,
            &[(0, 1000), (17, 12345), (u128::from(u64::MAX) - 50, 100)],
        );
    }

    #[test]
    fn residue_generator() {
        let b = NoaBit::Residue {
            period: 3,
            residue: 1,
        };
        let v: Vec<bool> = (0..6).map(|c| b.at(c)).collect();
        assert_eq!(v, [false, true, false, false, true, false]);
        assert_eq!(b.period(), Some(3));
        assert_eq!(b.constant(), None);
        // Degenerate forms are constants with period 1.
        for (period, residue, k) in [(0, 0, false), (3, 3, false), (1, 0, true)] {
            let b = NoaBit::Residue { period, residue };
            assert_eq!(b.constant(), Some(k), "{period} {residue}");
            assert_eq!(b.period(), Some(1));
            assert!((0..10).all(|c| b.at(c) == k));
        }
        assert!(NoaBit::Residue {
            period: 7,
            residue: 1 // (2^64 - 1) % 7
        }
        .at(u64::MAX));
    }

    /// TestOa's CEC programming (BDW and TGL), decoded.
    fn test_oa() -> [CecConfig; CECS] {
        let raw: [(u32, u32); CECS] = [
            (0x4, 0),
            (0x3, 0),
            (0x7, 0),
            (0x0010_0002, 0xFFF7),
            (0x0010_0002, 0xFFCF),
            (0x0010_0082, 0xFFEF),
            (0x0010_00C2, 0xFFE7),
            (0x0010_0001, 0xFFE7),
        ];
        raw.map(|(c0, c1)| {
            cfg(
                (c0 & 7) as u8,
                (c0 >> 3) as u16,
                (c0 >> 19 & 3) as u8,
                c1 as u16,
            )
        })
    }

    #[test]
    fn select_2_on_the_test_signals_gives_the_test_oa_fractions() {
        let test = NoaSource::test_signals();
        let plan = CecPlan::new(
            test_oa(),
            &NoaSource::new(),
            Some((&test, TEST_SIGNAL_BITS)),
        );
        assert_eq!(plan.unknown().count(), 0);
        assert_eq!(plan.periodic.as_ref().map(|p| p.len), Some(6));
        let mut out = [0u128; CECS];
        plan.count(0, 6000, &mut out);
        assert_eq!(out, [0, 6000, 6000, 3000, 2000, 2000, 1000, 4000]);
        // Any window: within one of the fraction.
        for (c0, n) in [
            (1u128, 7u128),
            (5, 512),
            (12345, 1001),
            (u128::from(u64::MAX) - 3, 7),
        ] {
            let mut out = [0u128; CECS];
            plan.count(c0, n, &mut out);
            for (k, (num, den)) in [
                (3, (1, 2)),
                (4, (1, 3)),
                (5, (1, 3)),
                (6, (1, 6)),
                (7, (2, 3)),
            ] {
                assert!(
                    (out[k] * den).abs_diff(n * num) <= den,
                    "B{k} {} of {n} from {c0}",
                    out[k]
                );
            }
        }
    }

    #[test]
    fn unknown_inputs_count_nothing() {
        // Not routed: B3..B7 unknown, B0..B2 (select 0, or no input read)
        // still count.
        let plan = CecPlan::new(test_oa(), &NoaSource::new(), None);
        let u: Vec<_> = plan.unknown().collect();
        assert_eq!(
            u,
            (3..8)
                .map(|n| (n, CecUnknown::BooleanNotRouted))
                .collect::<Vec<_>>()
        );
        let mut out = [0u128; CECS];
        plan.count(0, 600, &mut out);
        assert_eq!(out, [0, 600, 600, 0, 0, 0, 0, 0]);
        // Routed, but a kept bit outside 3..5; select 3; a select-1 unit
        // after an unknown one; select 2 always-true and all-masked read
        // nothing and count.
        let test = NoaSource::test_signals();
        let mut c = [cfg(7, 0, 0, 0); CECS];
        c[0] = cfg(2, 0, 2, 0xFFF3); // keeps bit 2
        c[1] = cfg(3, 0, 1, 0xFFFE); // after an unknown unit
        c[2] = cfg(2, 0, 3, 0xFFF7);
        c[3] = cfg(7, 0, 2, 0);
        c[4] = cfg(6, 0, 3, 0xFFFF); // s <= 0 with nothing kept: true
        let plan = CecPlan::new(c, &NoaSource::new(), Some((&test, TEST_SIGNAL_BITS)));
        let u: Vec<_> = plan.unknown().collect();
        assert_eq!(
            u,
            [
                (0, CecUnknown::BooleanBitUndefined),
                (1, CecUnknown::PreviousUnknown),
                (2, CecUnknown::Select3)
            ]
        );
        let mut out = [0u128; CECS];
        plan.count(0, 60, &mut out);
        assert_eq!(out, [0, 0, 0, 60, 60, 60, 60, 60]);
    }

    #[test]
    fn boolean_periodic_counts_match_clock_by_clock() {
        // NOA dividers and Boolean residues together: the common period.
        let noa = NoaSource::new().divider(0, 2);
        let test = NoaSource::test_signals();
        let mut c = test_oa();
        c[0] = cfg(2, 1, 0, 0xFFFE);
        c[2] = cfg(2, 1, 1, 0xFFFE); // follows CEC1
        let plan = CecPlan::new(c, &noa, Some((&test, TEST_SIGNAL_BITS)));
        assert_eq!(plan.periodic.as_ref().map(|p| p.len), Some(12));
        counts_match_clock_by_clock(&plan, &[(0, 1000), (17, 12345), (3, 5)]);
    }
}
