//! `regdefs!`: describe extra registers inline or in a YAML file of your own,
//! through the same pipeline as the HAL's build script (documented on
//! [`regdefs!`]).

use proc_macro::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};

struct Input {
    vis: Visibility,
    name: Ident,
    source: LitStr,
    hal: Option<syn::Path>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let vis: Visibility = input.parse()?;
        input.parse::<Token![mod]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![,]>()?;
        let source: LitStr = input.parse()?;
        let mut hal = None;
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if !input.is_empty() {
                let key: Ident = input.parse()?;
                if key != "hal" {
                    return Err(syn::Error::new(
                        key.span(),
                        "expected `hal = path::to::hal`",
                    ));
                }
                input.parse::<Token![=]>()?;
                hal = Some(input.parse()?);
                let _ = input.parse::<Option<Token![,]>>()?;
            }
        }
        Ok(Input {
            vis,
            name,
            source,
            hal,
        })
    }
}

fn is_path(s: &str) -> bool {
    !s.contains('\n') && (s.ends_with(".yaml") || s.ends_with(".yml"))
}

/// `regdefs!`: describe extra registers inline or in a YAML file of your own,
/// through the same pipeline as the HAL's build script.
///
/// ```ignore
/// perfregs::regdefs!(pub mod my_regs, "regs/extra.yaml");   // path relative to CARGO_MANIFEST_DIR
/// perfregs::regdefs!(mod inline_regs, r#"
/// block: extra
/// space: mmio
/// source: my notes
/// registers:
///   - { name: MY_CTL, projects: tgl, address: 0x9400, fields: [ { name: go, bits: 0, access: RW } ] }
/// "#);
/// perfregs::regdefs!(mod other, "regs/x.yaml", hal = my_crate::hal);  // the HAL at another path
/// ```
///
/// What the module holds:
/// - one module per project (`my_regs::tgl::MY_CTL`), with the registers as
///   locations (a type alias of `hal::register::Location` and a constant of
///   the same name; arrays as `RegisterArray`s), each register's fields and
///   value types under its lower-case name (`my_regs::tgl::my_ctl::R`,
///   `my_regs::tgl::my_ctl::GO`), the runtime table `my_regs::tgl::PROJECT`;
/// - `my_regs::layouts`: the field layouts, each once;
/// - `my_regs::enums`: the enums of the file, and `my_regs::tgl::enums` the
///   ones a project's registers use, under their project-free names.
///
/// The file is compiled against the built-in descriptions of
/// `perfregs-regdefs` (unless it describes power domains, replication groups
/// or an address map of its own): its registers take the wake domain and
/// replication group of the project's maps (`MY_CTL` at 0x9400 on TGL needs a
/// `tgl::domains::Gt` proof; a register in a DSS range is `Replicated`), and a
/// name or address that clashes with a built-in register is an error. The
/// project, domain and group types are the HAL's, so the registers work with
/// `perfregs::hal::Device` like the built-in ones. `hal = path` names the HAL
/// crate when it is not reachable as `::perfregs::hal`. Diagnostics become
/// `compile_error!`s that name `file:line:column` (for inline text, lines
/// count from the opening quote).
///
/// Compile time: the macro runs at every build of the crate that uses it,
/// and cargo builds proc-macros and what they run unoptimized by default.
/// `[profile.dev.build-override] opt-level = 2` in the workspace's
/// `Cargo.toml` optimizes them once; for 1,000 registers it took a clean
/// build of the crate from 1.71 s to 1.55 s (`benches/compile_race`).
/// Without it, the macro still skips parsing the built-in descriptions
/// (its build script stored their trees) and parses a large file of
/// registers in pieces on the machine's threads.
#[proc_macro]
pub fn regdefs(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as Input);
    match expand(&input) {
        Ok(ts) => ts.into(),
        Err(msg) => {
            let span = input.source.span();
            quote::quote_spanned!(span=> compile_error!(#msg);).into()
        }
    }
}

/// The built-in descriptions parsed, by the build script.
static PARSED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/built_in.parsed"));

/// The descriptions of `perfregs-regdefs`, loaded once per process (the
/// compiler keeps a proc-macro loaded for a whole crate, so a crate with
/// several `regdefs!` loads them once) from their trees the build script
/// parsed.
fn built_in() -> Result<&'static perfregs_codegen::BuiltIn, Vec<perfregs_codegen::diag::Diagnostic>>
{
    static BUILT_IN: std::sync::OnceLock<
        Result<perfregs_codegen::BuiltIn, Vec<perfregs_codegen::diag::Diagnostic>>,
    > = std::sync::OnceLock::new();
    BUILT_IN
        .get_or_init(|| perfregs_codegen::BuiltIn::from_stored(perfregs_regdefs::FILES, PARSED))
        .as_ref()
        .map_err(Clone::clone)
}

fn expand(input: &Input) -> Result<proc_macro2::TokenStream, String> {
    let mut t = perfregs_codegen::timing::Phases::start();
    let value = input.source.value();
    let (name, text, tracked) = if is_path(&value) {
        let root = std::env::var("CARGO_MANIFEST_DIR")
            .map_err(|_| "CARGO_MANIFEST_DIR is not set".to_string())?;
        let full = std::path::Path::new(&root).join(&value);
        let text = std::fs::read_to_string(&full)
            .map_err(|e| format!("cannot read {}: {e}", full.display()))?;
        let full_str = full.display().to_string();
        // Proc-macro file reads are not tracked by cargo; include_str! makes them so.
        (
            value.clone(),
            text,
            Some(quote!(
                const _: &str = include_str!(#full_str);
            )),
        )
    } else {
        ("<inline>".to_string(), value.clone(), None)
    };
    // Against the built-in descriptions (loaded beside the parse of the
    // file): user registers get the projects' wake domains and replication
    // groups (and clash with built-in names).
    let ir = perfregs_codegen::compile_user_sources_loading(built_in, &[(name, text)]).map_err(
        |diags| {
            let built_in = diags.iter().all(|d| d.file.starts_with("<built-in "));
            let whose = match built_in {
                true => "the built-in descriptions",
                false => "the register description",
            };
            let mut s = format!("perfregs: {} error(s) in {whose}\n", diags.len());
            for d in diags {
                s += &format!("{d}\n");
            }
            s
        },
    )?;
    t.mark("macro: compile (all phases)");
    let hal = match &input.hal {
        Some(p) => quote!(#p),
        None => quote!(::perfregs::hal),
    };
    let opts = perfregs_codegen::EmitOptions::for_macro(hal);
    let body = perfregs_codegen::emit::emit(&ir, &opts);
    t.mark("macro: emit");
    let (vis, name) = (&input.vis, &input.name);
    let out = quote! {
        #[allow(non_camel_case_types, clippy::all)]
        #vis mod #name {
            #tracked
            #body
        }
    };
    t.mark("macro: output tokens");
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The build script's store holds the built-in files, so the macro
    /// loads them without the YAML parser.
    #[test]
    fn build_script_stored_the_built_ins() {
        assert!(perfregs_codegen::BuiltIn::store_holds(
            perfregs_regdefs::FILES,
            super::PARSED
        ));
        assert!(super::built_in().is_ok());
    }
}
