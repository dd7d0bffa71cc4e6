//! Fake sysfs/procfs trees for the workspace's tests (not part of the API):
//! what discovery reads, written under a fresh temporary folder.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::discovery::Roots;

/// A fresh folder under the system's temp folder holding `sys/` and
/// `proc/`, removed on drop. Its methods panic when a file cannot be
/// written (they are for tests).
#[derive(Debug)]
pub struct FakeTree(pub PathBuf);

impl FakeTree {
    /// A new empty tree; `tag` names the folder.
    pub fn new(tag: &str) -> FakeTree {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "perfregs-fake-tree-{}-{tag}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        FakeTree(dir)
    }

    /// A tree with a TGL GT2 (0x9A49) as `card0` at `0000:00:02.0` bound
    /// to i915, i915's paranoid sysctl at `paranoid`, and a process of uid
    /// 1000 without capabilities.
    pub fn tgl_i915(tag: &str, paranoid: u32) -> FakeTree {
        let t = FakeTree::new(tag);
        t.card(0, "0000:00:02.0", 0x8086, 0x9A49, Some("i915"));
        t.paranoid("i915", paranoid);
        t.caps(1000, 0);
        t
    }

    /// A tree with two TGL GT2 (0x9A49) cards bound to i915, `card0` at
    /// `0000:00:02.0` and `card1` at `0000:00:03.0`, whose PCI device id
    /// does not parse (`banana`); no sysctl and no process status.
    pub fn with_damaged_card1(tag: &str) -> FakeTree {
        let t = FakeTree::new(tag);
        t.card(0, "0000:00:02.0", 0x8086, 0x9A49, Some("i915"));
        t.card(1, "0000:00:03.0", 0x8086, 0x9A49, Some("i915"));
        t.write("sys/devices/pci0000:00/0000:00:03.0/device", "banana\n");
        t
    }

    /// The tree's `sys` and `proc` folders.
    pub fn roots(&self) -> Roots {
        Roots {
            sys: self.0.join("sys"),
            proc: self.0.join("proc"),
        }
    }

    /// Write `text` to `rel` (folders made as needed).
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.0.join(rel);
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(p, text).expect("write");
    }

    /// A PCI function at `bdf` (revision 1, subsystem device 0x3034) with
    /// a DRM card `cardN` (and a render node `renderD{128+N}`, and a
    /// connector `cardN-eDP-1` beside the card, which is not a card),
    /// bound to `driver` (None: unbound).
    pub fn card(&self, n: u32, bdf: &str, vendor: u16, device: u16, driver: Option<&str>) {
        let pci = format!("sys/devices/pci0000:00/{bdf}");
        self.write(&format!("{pci}/vendor"), &format!("{vendor:#06x}\n"));
        self.write(&format!("{pci}/device"), &format!("{device:#06x}\n"));
        self.write(&format!("{pci}/revision"), "0x01\n");
        self.write(&format!("{pci}/subsystem_device"), "0x3034\n");
        fs::create_dir_all(self.0.join(format!("{pci}/drm/card{n}"))).expect("mkdir");
        fs::create_dir_all(self.0.join(format!("{pci}/drm/renderD{}", 128 + n))).expect("mkdir");
        if let Some(d) = driver {
            fs::create_dir_all(self.0.join(format!("sys/bus/pci/drivers/{d}"))).expect("mkdir");
            symlink(
                format!("../../../bus/pci/drivers/{d}"),
                self.0.join(format!("{pci}/driver")),
            )
            .expect("driver link");
        }
        let class = self.0.join(format!("sys/class/drm/card{n}"));
        fs::create_dir_all(&class).expect("mkdir");
        symlink(
            format!("../../../devices/pci0000:00/{bdf}"),
            class.join("device"),
        )
        .expect("device link");
        fs::create_dir_all(self.0.join(format!("sys/class/drm/card{n}-eDP-1"))).expect("mkdir");
    }

    /// The paranoid sysctl of `driver` (`i915`, else Xe's) set to `value`.
    pub fn paranoid(&self, driver: &str, value: u32) {
        let file = match driver {
            "i915" => "proc/sys/dev/i915/perf_stream_paranoid",
            _ => "proc/sys/dev/xe/observation_paranoid",
        };
        self.write(file, &format!("{value}\n"));
    }

    /// `proc/self/status` of a process with effective uid `euid` and
    /// effective capabilities `cap_eff`.
    pub fn caps(&self, euid: u32, cap_eff: u64) {
        self.write(
            "proc/self/status",
            &format!(
                "Name:\tperfregs\nUid:\t{euid}\t{euid}\t{euid}\t{euid}\nCapInh:\t0000000000000000\nCapEff:\t{cap_eff:016x}\n"
            ),
        );
    }
}

impl Drop for FakeTree {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}
