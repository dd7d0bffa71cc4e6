/* Sizes, field offsets and ioctl numbers of the i915 uAPI that discovery
 * uses, as the C compiler sees them in libdrm's i915_drm.h. One line per
 * value: `name value`. Compiled and run by tests/abi.rs. */
#include <stddef.h>
#include <stdio.h>
#include <i915_drm.h>

#define P(name, v) printf("%s %llu\n", name, (unsigned long long)(v))
#define SZ(t) P("sizeof " #t, sizeof(struct t))
#define OFF(t, f) P("offsetof " #t "." #f, offsetof(struct t, f))
#define V(x) P(#x, x)

int main(void)
{
	SZ(drm_i915_getparam);
	OFF(drm_i915_getparam, param);
	OFF(drm_i915_getparam, value);

	SZ(drm_i915_query_item);
	OFF(drm_i915_query_item, query_id);
	OFF(drm_i915_query_item, length);
	OFF(drm_i915_query_item, flags);
	OFF(drm_i915_query_item, data_ptr);

	SZ(drm_i915_query);
	OFF(drm_i915_query, num_items);
	OFF(drm_i915_query, flags);
	OFF(drm_i915_query, items_ptr);

	SZ(drm_i915_query_topology_info);
	OFF(drm_i915_query_topology_info, flags);
	OFF(drm_i915_query_topology_info, max_slices);
	OFF(drm_i915_query_topology_info, max_subslices);
	OFF(drm_i915_query_topology_info, max_eus_per_subslice);
	OFF(drm_i915_query_topology_info, subslice_offset);
	OFF(drm_i915_query_topology_info, subslice_stride);
	OFF(drm_i915_query_topology_info, eu_offset);
	OFF(drm_i915_query_topology_info, eu_stride);
	OFF(drm_i915_query_topology_info, data);

	V(DRM_IOCTL_BASE);
	V(DRM_COMMAND_BASE);
	V(DRM_I915_GETPARAM);
	V(DRM_I915_QUERY);
	V(DRM_IOCTL_I915_GETPARAM);
	V(DRM_IOCTL_I915_QUERY);
	V(I915_PARAM_CHIPSET_ID);
	V(I915_PARAM_REVISION);
	V(I915_PARAM_CS_TIMESTAMP_FREQUENCY);
	V(I915_PARAM_PERF_REVISION);
	V(DRM_I915_QUERY_TOPOLOGY_INFO);
	return 0;
}
