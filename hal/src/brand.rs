//! Device identities: which device a proof (force-wake guard, assumed-awake
//! proof) belongs to.
//!
//! A [`Device`](crate::Device) has an identity type, its third parameter.
//! [`Device::new`](crate::Device::new) gives [`Unbranded`]: every such device
//! has the same proof types, so each access compares the proof's device with
//! its own and panics on a mismatch. [`brand!`](crate::brand!) makes a
//! [`Brand`] with a lifetime no other brand unifies with; a device made with
//! it ([`Device::branded`](crate::Device::branded)) has proof types of its
//! own, so another device's guard does not compile, and nothing is checked at
//! run time.
//!
//! ```
//! use hal::{brand, tgl, Device, SliceBus, Tgl};
//! let (mut a, mut b) = ([0u32; 0x4000], [0u32; 0x4000]);
//! brand!(first);
//! brand!(second);
//! let gpu0 = Device::<Tgl, _>::branded(SliceBus::new(&mut a), first);
//! let gpu1 = Device::<Tgl, _>::branded(SliceBus::new(&mut b), second);
//! let rw0 = gpu0.assume_awake::<tgl::domains::Render>();
//! let _ = gpu0.read(tgl::OAR_OACONTROL, &rw0);
//! // gpu1.read(tgl::OAR_OACONTROL, &rw0) does not compile.
//! # let _ = gpu1;
//! ```

use core::marker::PhantomData;

pub(crate) mod sealed {
    /// Implemented by the identities of this crate only.
    pub trait Identity {}

    /// Implemented by the proofs of this crate only: which device made a
    /// proof.
    pub trait Proof {
        /// Whether the device at address `device` made the proof (always
        /// true for [`AlwaysAwake`](crate::AlwaysAwake), which belongs to no
        /// device).
        fn made_by(&self, device: usize) -> bool;
    }
}

/// The identity of a [`Device`](crate::Device): [`Unbranded`] or a [`Brand`].
pub trait Identity: sealed::Identity {
    /// Whether proofs are checked against the device at run time (an address
    /// comparison per access): true where the type alone does not tell
    /// devices apart.
    const CHECKED: bool;
}

/// The identity of devices made by [`Device::new`](crate::Device::new): shared
/// by all of them, so the device a proof belongs to is checked at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unbranded;

impl sealed::Identity for Unbranded {}
impl Identity for Unbranded {
    const CHECKED: bool = true;
}

/// A unique identity made by [`brand!`](crate::brand!): its lifetime `'id`
/// unifies with no other brand's, so the proofs of a device branded with it
/// are accepted by that device alone, at compile time. Not `Clone`: one brand,
/// one device.
pub struct Brand<'id> {
    _invariant: PhantomData<fn(&'id ()) -> &'id ()>,
}

impl sealed::Identity for Brand<'_> {}
impl Identity for Brand<'_> {
    const CHECKED: bool = false;
}

impl core::fmt::Debug for Brand<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Brand")
    }
}

/// Make a unique [`Brand`] named `$name`, for
/// [`Device::branded`](crate::Device::branded).
///
/// No two brands' lifetimes unify (the `generativity` technique, by hand:
/// each brand's lifetime is pinned to a local borrowed until the end of the
/// enclosing block, and a never-taken early `return` keeps that true when the
/// rest of the block diverges). Passing one branded device's proof to
/// another is therefore a borrow-check error at the second `brand!`:
/// "temporary value dropped while borrowed ... when `brand_scope` is dropped".
///
/// The brand, and so the device, cannot leave the enclosing block: devices
/// made in a loop and kept (a `Vec` of them) use
/// [`Device::new`](crate::Device::new) and its run-time check instead. Not
/// usable in a function that returns `!`; in a closure, write the closure's
/// return type (`|x| -> u32 { brand!(id); ... }`).
///
/// ```
/// use hal::{brand, hsw, Device, Hsw, SliceBus};
/// let mut mem = [0u32; 0x3000 / 4];
/// brand!(id);
/// let gpu = Device::<Hsw, _>::branded(SliceBus::new(&mut mem), id);
/// let rw = gpu.assume_awake::<hsw::domains::Render>();
/// assert_eq!(gpu.read(hsw::OACONTROL, &rw).timer_period(), 0);
/// ```
#[macro_export]
macro_rules! brand {
    ($name:ident) => {
        // `$name` first names the place whose borrow pins the lifetime, then
        // the brand itself.
        let $name = $crate::__private::Place::new();
        #[allow(unused_variables)]
        let brand_scope = $crate::__private::BrandScope::new(&$name);
        let $name = $crate::__private::Place::brand($name);
        if false {
            #[allow(unused_imports)]
            use $crate::__private::AnyReturn as _;
            #[allow(unreachable_code)]
            {
                let r = $crate::__private::Return::new();
                if false {
                    return $crate::__private::AnyReturn::value(&r);
                }
                return r.value();
            }
        }
    };
}

/// Used by [`brand!`]; not part of the API.
#[doc(hidden)]
pub mod __private {
    use super::Brand;
    use core::marker::PhantomData;

    /// The local whose borrow pins a brand's lifetime.
    #[derive(Clone, Copy)]
    pub struct Place<'id>(PhantomData<fn(&'id ()) -> &'id ()>);

    impl<'id> Place<'id> {
        /// A place with a lifetime still to be pinned by [`BrandScope::new`].
        #[allow(clippy::new_without_default)]
        pub fn new() -> Self {
            Place(PhantomData)
        }
        /// The brand of this place (only `brand!` may call this, after pinning
        /// the place).
        pub fn brand(self) -> Brand<'id> {
            Brand {
                _invariant: PhantomData,
            }
        }
    }

    /// Borrows its place for `'id` and is dropped at the end of the block,
    /// so `'id` spans the block: two brands' lifetimes end at different drops
    /// and cannot be equal.
    pub struct BrandScope<'id>(PhantomData<&'id Place<'id>>);

    impl<'id> BrandScope<'id> {
        /// Pin `'id` to the borrow of `place`.
        pub fn new(_place: &'id Place<'id>) -> Self {
            BrandScope(PhantomData)
        }
    }

    impl Drop for BrandScope<'_> {
        #[inline(always)]
        fn drop(&mut self) {
            // Empty: having drop glue makes `'id` live where the scope is dropped.
        }
    }

    /// A value of any return type for the never-taken `return` of `brand!`.
    pub struct Return<T>(PhantomData<T>);

    impl<T> Return<T> {
        /// The placeholder.
        #[allow(clippy::new_without_default)]
        pub fn new() -> Self {
            Return(PhantomData)
        }
    }

    /// Gives a value of type `T` (never called at run time).
    pub trait AnyReturn<T> {
        /// Unreachable.
        fn value(&self) -> T {
            unreachable!("brand!: the early return is never taken")
        }
    }

    impl<T> AnyReturn<T> for Return<T> {}

    mod never {
        pub trait FnReturn {
            type Output;
        }
        impl<R> FnReturn for fn() -> R {
            type Output = R;
        }
    }

    /// `!`, named on stable Rust.
    pub type Never = <fn() -> ! as never::FnReturn>::Output;

    /// Not implemented by `!`: a `return` of `!` would not be a real exit.
    #[diagnostic::on_unimplemented(
        message = "`brand!` cannot be used in a function that returns `!`",
        note = "a brand's uniqueness rests on the function being able to return; brand the device in a function that does"
    )]
    pub trait Returns {}

    impl Return<Never> {
        /// Rejects `brand!` in functions returning `!` (chosen over
        /// [`AnyReturn::value`] as an inherent method).
        pub fn value(&self) -> Never
        where
            for<'a> Never: Returns,
        {
            unreachable!("brand!: the early return is never taken")
        }
    }
}
