/* Sizes, field offsets and ioctl numbers of the i915 uAPI that discovery
 * uses, as the C compiler sees them in libdrm's i915_drm.h. One line per
 * value: `name value`. Compiled and run by tests/abi_query.rs. */
#include <stddef.h>
#include <stdio.h>
#include <i915_drm.h>

#define P(name, v) printf("%s %llu\n", name, (unsigned long long)(v))
#define OFF(s, f) P("offsetof(" #s ", " #f ")", offsetof(struct s, f))
#define SIZE(s) P("sizeof(" #s ")", sizeof(struct s))

int main(void)
{
	SIZE(drm_i915_getparam);
	OFF(drm_i915_getparam, param);
	OFF(drm_i915_getparam, value);

	SIZE(drm_i915_query_item);
	OFF(drm_i915_query_item, query_id);
	OFF(drm_i915_query_item, length);
	OFF(drm_i915_query_item, flags);
	OFF(drm_i915_query_item, data_ptr);

	SIZE(drm_i915_query);
	OFF(drm_i915_query, num_items);
	OFF(drm_i915_query, flags);
	OFF(drm_i915_query, items_ptr);

	SIZE(drm_i915_query_topology_info);
	OFF(drm_i915_query_topology_info, flags);
	OFF(drm_i915_query_topology_info, max_slices);
	OFF(drm_i915_query_topology_info, max_subslices);
	OFF(drm_i915_query_topology_info, max_eus_per_subslice);
	OFF(drm_i915_query_topology_info, subslice_offset);
	OFF(drm_i915_query_topology_info, subslice_stride);
	OFF(drm_i915_query_topology_info, eu_offset);
	OFF(drm_i915_query_topology_info, eu_stride);
	OFF(drm_i915_query_topology_info, data);

	P("DRM_IOCTL_BASE", DRM_IOCTL_BASE);
	P("DRM_COMMAND_BASE", DRM_COMMAND_BASE);
	P("DRM_I915_GETPARAM", DRM_I915_GETPARAM);
	P("DRM_I915_QUERY", DRM_I915_QUERY);
	P("DRM_IOCTL_I915_GETPARAM", DRM_IOCTL_I915_GETPARAM);
	P("DRM_IOCTL_I915_QUERY", DRM_IOCTL_I915_QUERY);
	P("I915_PARAM_CHIPSET_ID", I915_PARAM_CHIPSET_ID);
	P("I915_PARAM_REVISION", I915_PARAM_REVISION);
	P("I915_PARAM_CS_TIMESTAMP_FREQUENCY", I915_PARAM_CS_TIMESTAMP_FREQUENCY);
	P("I915_PARAM_PERF_REVISION", I915_PARAM_PERF_REVISION);
	P("DRM_I915_QUERY_TOPOLOGY_INFO", DRM_I915_QUERY_TOPOLOGY_INFO);
	return 0;
}
