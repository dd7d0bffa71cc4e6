// A broken inline description is a compile error naming line and column.
perfregs::regdefs!(mod regs, r#"
block: bad
space: mmio
source: compile-fail test
registers:
  - name: CTL
    projects: hsw
    address: 0x100
    fields:
      - { name: a, bits: "7:4", access: RW }
      - { name: b, bits: "5:0", access: R/W }
"#);

fn main() {}
