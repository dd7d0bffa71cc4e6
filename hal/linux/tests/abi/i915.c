/* Prints the i915 perf ABI as "name value" lines, compiled against the
 * system's i915_drm.h (Debian libdrm-dev: /usr/include/libdrm) by
 * tests/abi.rs, which compares every line with the Rust definitions. */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <i915_drm.h>

#define P(name, v) printf("%s %llu\n", name, (unsigned long long)(v))
#define SZ(t) P("sizeof " #t, sizeof(struct t))
#define OFF(t, f) P("offsetof " #t "." #f, offsetof(struct t, f))
#define V(x) P(#x, x)

int main(void)
{
	SZ(drm_i915_perf_open_param);
	OFF(drm_i915_perf_open_param, flags);
	OFF(drm_i915_perf_open_param, num_properties);
	OFF(drm_i915_perf_open_param, properties_ptr);

	SZ(drm_i915_perf_oa_config);
	OFF(drm_i915_perf_oa_config, uuid);
	P("sizeof drm_i915_perf_oa_config.uuid", sizeof(((struct drm_i915_perf_oa_config *)0)->uuid));
	OFF(drm_i915_perf_oa_config, n_mux_regs);
	OFF(drm_i915_perf_oa_config, n_boolean_regs);
	OFF(drm_i915_perf_oa_config, n_flex_regs);
	OFF(drm_i915_perf_oa_config, mux_regs_ptr);
	OFF(drm_i915_perf_oa_config, boolean_regs_ptr);
	OFF(drm_i915_perf_oa_config, flex_regs_ptr);

	SZ(drm_i915_perf_record_header);
	OFF(drm_i915_perf_record_header, type);
	OFF(drm_i915_perf_record_header, pad);
	OFF(drm_i915_perf_record_header, size);

	V(DRM_COMMAND_BASE);
	V(DRM_IOCTL_BASE);
	V(DRM_I915_PERF_OPEN);
	V(DRM_I915_PERF_ADD_CONFIG);
	V(DRM_I915_PERF_REMOVE_CONFIG);
	V(DRM_IOCTL_I915_PERF_OPEN);
	V(DRM_IOCTL_I915_PERF_ADD_CONFIG);
	V(DRM_IOCTL_I915_PERF_REMOVE_CONFIG);
	V(I915_PERF_IOCTL_ENABLE);
	V(I915_PERF_IOCTL_DISABLE);
	V(I915_PERF_IOCTL_CONFIG);

	V(I915_PERF_FLAG_FD_CLOEXEC);
	V(I915_PERF_FLAG_FD_NONBLOCK);
	V(I915_PERF_FLAG_DISABLED);
	V(I915_PARAM_PERF_REVISION);

	V(DRM_I915_PERF_PROP_CTX_HANDLE);
	V(DRM_I915_PERF_PROP_SAMPLE_OA);
	V(DRM_I915_PERF_PROP_OA_METRICS_SET);
	V(DRM_I915_PERF_PROP_OA_FORMAT);
	V(DRM_I915_PERF_PROP_OA_EXPONENT);
	V(DRM_I915_PERF_PROP_HOLD_PREEMPTION);
	V(DRM_I915_PERF_PROP_GLOBAL_SSEU);
	V(DRM_I915_PERF_PROP_POLL_OA_PERIOD);

	V(I915_OA_FORMAT_A13);
	V(I915_OA_FORMAT_A29);
	V(I915_OA_FORMAT_A13_B8_C8);
	V(I915_OA_FORMAT_B4_C8);
	V(I915_OA_FORMAT_A45_B8_C8);
	V(I915_OA_FORMAT_B4_C8_A16);
	V(I915_OA_FORMAT_C4_B8);
	V(I915_OA_FORMAT_A12);
	V(I915_OA_FORMAT_A12_B8_C8);
	V(I915_OA_FORMAT_A32u40_A4u32_B8_C8);

	V(DRM_I915_PERF_RECORD_SAMPLE);
	V(DRM_I915_PERF_RECORD_OA_REPORT_LOST);
	V(DRM_I915_PERF_RECORD_OA_BUFFER_LOST);
	return 0;
}
