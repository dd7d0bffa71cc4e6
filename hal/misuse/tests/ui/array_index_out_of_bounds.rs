// CEC{n}_0 has four elements on IVB: element 4 does not exist, and a constant
// index past the end is a compile error (a run-time index gives `None`).
use perfregs::hal::ivb;

fn main() {
    let _ = ivb::CECn_0.at::<4>();
}
