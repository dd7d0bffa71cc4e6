//! The Perfetto messages written, as `prost` messages with Perfetto's field
//! numbers (`protos/perfetto/trace/trace.proto`, `trace_packet.proto`,
//! `clock_snapshot.proto`, `gpu/gpu_counter_event.proto`,
//! `common/gpu_counter_descriptor.proto`, `track_event/*.proto`). Only the
//! fields perfregs writes; the tests decode the output by Perfetto's own
//! `.proto` files (`protos/`, shipped unchanged), which checks these numbers.
//! Also the part of a data source's config that the data source reads
//! ([`DataSourceConfig`], `config/data_source_config.proto`,
//! `config/gpu/gpu_counter_config.proto`; the data source's tests write it
//! with the Perfetto SDK's own messages).

/// `Trace`: a `.pftrace` file.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Trace {
    /// `packet` = 1.
    #[prost(message, repeated, tag = "1")]
    pub packet: Vec<TracePacket>,
}

/// `TracePacket`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TracePacket {
    /// `timestamp` = 8 (ns in `timestamp_clock_id`).
    #[prost(uint64, optional, tag = "8")]
    pub timestamp: Option<u64>,
    /// `timestamp_clock_id` = 58.
    #[prost(uint32, optional, tag = "58")]
    pub timestamp_clock_id: Option<u32>,
    /// `trusted_packet_sequence_id` = 10.
    #[prost(uint32, optional, tag = "10")]
    pub trusted_packet_sequence_id: Option<u32>,
    /// `sequence_flags` = 13.
    #[prost(uint32, optional, tag = "13")]
    pub sequence_flags: Option<u32>,
    /// `clock_snapshot` = 6.
    #[prost(message, optional, tag = "6")]
    pub clock_snapshot: Option<ClockSnapshot>,
    /// `gpu_counter_event` = 52.
    #[prost(message, optional, tag = "52")]
    pub gpu_counter_event: Option<GpuCounterEvent>,
    /// `track_event` = 11.
    #[prost(message, optional, tag = "11")]
    pub track_event: Option<TrackEvent>,
    /// `track_descriptor` = 60.
    #[prost(message, optional, tag = "60")]
    pub track_descriptor: Option<TrackDescriptor>,
}

/// `TracePacket.SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED`.
pub const SEQ_INCREMENTAL_STATE_CLEARED: u32 = 1;

/// `ClockSnapshot`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ClockSnapshot {
    /// `clocks` = 1.
    #[prost(message, repeated, tag = "1")]
    pub clocks: Vec<Clock>,
    /// `primary_trace_clock` = 2 (a `BuiltinClock`).
    #[prost(int32, optional, tag = "2")]
    pub primary_trace_clock: Option<i32>,
}

/// `ClockSnapshot.Clock`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Clock {
    /// `clock_id` = 1.
    #[prost(uint32, optional, tag = "1")]
    pub clock_id: Option<u32>,
    /// `timestamp` = 2.
    #[prost(uint64, optional, tag = "2")]
    pub timestamp: Option<u64>,
}

/// `GpuCounterEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounterEvent {
    /// `counter_descriptor` = 1 (inline).
    #[prost(message, optional, tag = "1")]
    pub counter_descriptor: Option<GpuCounterDescriptor>,
    /// `counters` = 2.
    #[prost(message, repeated, tag = "2")]
    pub counters: Vec<GpuCounter>,
    /// `gpu_id` = 3.
    #[prost(int32, optional, tag = "3")]
    pub gpu_id: Option<i32>,
}

/// `GpuCounterEvent.GpuCounter`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounter {
    /// `counter_id` = 1.
    #[prost(uint32, optional, tag = "1")]
    pub counter_id: Option<u32>,
    /// `int_value` = 2.
    #[prost(int64, optional, tag = "2")]
    pub int_value: Option<i64>,
    /// `double_value` = 3.
    #[prost(double, optional, tag = "3")]
    pub double_value: Option<f64>,
}

/// `GpuCounterDescriptor`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounterDescriptor {
    /// `specs` = 1.
    #[prost(message, repeated, tag = "1")]
    pub specs: Vec<GpuCounterSpec>,
    /// `blocks` = 2.
    #[prost(message, repeated, tag = "2")]
    pub blocks: Vec<GpuCounterBlock>,
}

/// `GpuCounterDescriptor.GpuCounterSpec`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounterSpec {
    /// `counter_id` = 1.
    #[prost(uint32, optional, tag = "1")]
    pub counter_id: Option<u32>,
    /// `name` = 2.
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    /// `description` = 3.
    #[prost(string, optional, tag = "3")]
    pub description: Option<String>,
    /// `numerator_units` = 7 (`MeasureUnit`; proto2, unpacked).
    #[prost(int32, repeated, packed = "false", tag = "7")]
    pub numerator_units: Vec<i32>,
    /// `denominator_units` = 8.
    #[prost(int32, repeated, packed = "false", tag = "8")]
    pub denominator_units: Vec<i32>,
}

/// `GpuCounterDescriptor.GpuCounterBlock`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounterBlock {
    /// `block_id` = 1.
    #[prost(uint32, optional, tag = "1")]
    pub block_id: Option<u32>,
    /// `name` = 3.
    #[prost(string, optional, tag = "3")]
    pub name: Option<String>,
    /// `counter_ids` = 5 (proto2, unpacked).
    #[prost(uint32, repeated, packed = "false", tag = "5")]
    pub counter_ids: Vec<u32>,
}

/// `TrackDescriptor`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackDescriptor {
    /// `uuid` = 1.
    #[prost(uint64, optional, tag = "1")]
    pub uuid: Option<u64>,
    /// `name` = 2.
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
}

/// `TrackEvent`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TrackEvent {
    /// `type` = 9 (`TYPE_INSTANT` = 3).
    #[prost(int32, optional, tag = "9")]
    pub r#type: Option<i32>,
    /// `track_uuid` = 11.
    #[prost(uint64, optional, tag = "11")]
    pub track_uuid: Option<u64>,
    /// `name` = 23.
    #[prost(string, optional, tag = "23")]
    pub name: Option<String>,
    /// `debug_annotations` = 4.
    #[prost(message, repeated, tag = "4")]
    pub debug_annotations: Vec<DebugAnnotation>,
}

/// `TrackEvent.Type.TYPE_INSTANT`.
pub const TYPE_INSTANT: i32 = 3;

/// `DebugAnnotation`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DebugAnnotation {
    /// `name` = 10.
    #[prost(string, optional, tag = "10")]
    pub name: Option<String>,
    /// `uint_value` = 3.
    #[prost(uint64, optional, tag = "3")]
    pub uint_value: Option<u64>,
}

/// `DataSourceConfig`: only the GPU counters' part (other fields are
/// skipped when decoding).
#[derive(Clone, PartialEq, prost::Message)]
pub struct DataSourceConfig {
    /// `name` = 1.
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    /// `gpu_counter_config` = 108.
    #[prost(message, optional, tag = "108")]
    pub gpu_counter_config: Option<GpuCounterConfig>,
}

/// `GpuCounterConfig`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GpuCounterConfig {
    /// `counter_period_ns` = 1.
    #[prost(uint64, optional, tag = "1")]
    pub counter_period_ns: Option<u64>,
    /// `counter_ids` = 2 (proto2, unpacked; a packed run decodes too).
    #[prost(uint32, repeated, packed = "false", tag = "2")]
    pub counter_ids: Vec<u32>,
    /// `counter_names` = 6.
    #[prost(string, repeated, tag = "6")]
    pub counter_names: Vec<String>,
}
