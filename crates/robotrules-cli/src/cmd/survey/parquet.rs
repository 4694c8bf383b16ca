//! `survey --format parquet`: the rows as one Parquet file through the arrow-rs `parquet`
//! crate (its column writers, without Arrow arrays), in row groups of [`ROW_GROUP`] rows so
//! that memory stays flat; the schema is [`robotrules_survey::COLUMNS`] then
//! [`robotrules_survey::USAGE_COLUMNS`], with their types.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use robotrules_survey::{Agent, Surveyed};

use crate::error::CliError;

/// Rows per row group.
const ROW_GROUP: usize = 1 << 17;

/// The schema: the columns of `robotrules_survey::COLUMNS` then `USAGE_COLUMNS`, in order.
const SCHEMA: &str = "
message survey_row {
  required binary host (STRING);
  required binary capture_time (STRING);
  required binary warc_file (STRING);
  optional int64 warc_offset;
  optional int32 status;
  optional binary redirect (STRING);
  optional binary content_type (STRING);
  required binary body_kind (STRING);
  required int64 bytes;
  required boolean parse_limit_cut;
  required binary agent (STRING);
  required boolean named;
  required binary reach (STRING);
  optional double crawl_delay;
  required int32 sitemaps;
  required boolean content_usage;
  required boolean content_signal;
  required boolean license;
  required boolean llm_policy;
  required binary usage_train_ai (STRING);
  required binary usage_search (STRING);
  required binary signal_search (STRING);
  required binary signal_ai_input (STRING);
  required binary signal_ai_train (STRING);
  required binary train_ai (STRING);
  required binary search (STRING);
  optional binary contradiction (STRING);
}";

/// The index of the first usage column in [`SCHEMA`].
const USAGE: usize = robotrules_survey::COLUMNS.len();

/// An optional column: the values present, and a definition level per row.
#[derive(Default)]
struct Optional<T> {
    values: Vec<T>,
    levels: Vec<i16>,
}

impl<T> Optional<T> {
    fn push(&mut self, value: Option<T>) {
        self.levels.push(i16::from(value.is_some()));
        self.values.extend(value);
    }
}

/// The rows of one row group, column by column.
#[derive(Default)]
struct Columns {
    host: Vec<ByteArray>,
    time: Vec<ByteArray>,
    file: Vec<ByteArray>,
    offset: Optional<i64>,
    status: Optional<i32>,
    redirect: Optional<ByteArray>,
    content_type: Optional<ByteArray>,
    body_kind: Vec<ByteArray>,
    bytes: Vec<i64>,
    cut: Vec<bool>,
    agent: Vec<ByteArray>,
    named: Vec<bool>,
    reach: Vec<ByteArray>,
    crawl_delay: Optional<f64>,
    sitemaps: Vec<i32>,
    /// `content_usage` to `llm_policy`.
    signals: [Vec<bool>; 4],
    /// `usage_train_ai` to `search`.
    outcomes: [Vec<ByteArray>; 7],
    contradiction: Optional<ByteArray>,
}

/// A Parquet file being written.
pub(crate) struct ParquetRows<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    agents: Vec<Agent>,
    columns: Columns,
}

fn parquet_error(error: parquet::errors::ParquetError) -> CliError {
    CliError::Write(std::io::Error::other(error))
}

impl<W: Write + Send> ParquetRows<W> {
    /// A file of rows for `agents`, written to `out`.
    pub(crate) fn new(out: W, agents: &[Agent]) -> Result<Self, CliError> {
        let schema = Arc::new(parse_message_type(SCHEMA).map_err(parquet_error)?);
        let properties = Arc::new(
            WriterProperties::builder()
                .set_compression(Compression::SNAPPY)
                .build(),
        );
        let writer = SerializedFileWriter::new(out, schema, properties).map_err(parquet_error)?;
        Ok(ParquetRows {
            writer,
            agents: agents.to_vec(),
            columns: Columns::default(),
        })
    }

    /// Adds the rows of `captures`, writing a row group when one is full.
    pub(crate) fn add(&mut self, captures: &[Surveyed]) -> Result<(), CliError> {
        let c = &mut self.columns;
        let rows = captures
            .iter()
            .flat_map(|s| s.rows(&self.agents).zip(s.usage_rows(&self.agents)));
        for (row, usage) in rows {
            c.host.push(row.host.into());
            c.time.push(row.capture_time.into());
            c.file.push(row.warc_file.into());
            c.offset
                .push(row.warc_offset.and_then(|n| i64::try_from(n).ok()));
            c.status.push(row.status.map(i32::from));
            c.redirect.push(row.redirect.map(ByteArray::from));
            c.content_type.push(row.content_type.map(ByteArray::from));
            c.body_kind.push(row.body_kind.as_str().into());
            c.bytes.push(i64::try_from(row.bytes).unwrap_or(i64::MAX));
            c.cut.push(row.parse_limit_cut);
            c.agent.push(row.agent.into());
            c.named.push(row.named);
            c.reach.push(row.reach.as_str().into());
            c.crawl_delay.push(row.crawl_delay);
            c.sitemaps
                .push(i32::try_from(row.sitemaps).unwrap_or(i32::MAX));
            for (column, flag) in c.signals.iter_mut().zip(usage.signal_flags()) {
                column.push(flag);
            }
            for (column, outcome) in c.outcomes.iter_mut().zip(usage.outcomes()) {
                column.push(outcome.as_str().into());
            }
            c.contradiction.push(
                usage
                    .usage
                    .contradiction
                    .map(|k| ByteArray::from(k.as_str())),
            );
        }
        if self.columns.host.len() >= ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the rows held as one row group.
    fn flush(&mut self) -> Result<(), CliError> {
        if self.columns.host.is_empty() {
            return Ok(());
        }
        let c = std::mem::take(&mut self.columns);
        let mut group = self.writer.next_row_group().map_err(parquet_error)?;
        let mut index = 0;
        while let Some(mut column) = group.next_column().map_err(parquet_error)? {
            let written = match index {
                0 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.host, None, None),
                1 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.time, None, None),
                2 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.file, None, None),
                3 => column.typed::<Int64Type>().write_batch(
                    &c.offset.values,
                    Some(&c.offset.levels),
                    None,
                ),
                4 => column.typed::<Int32Type>().write_batch(
                    &c.status.values,
                    Some(&c.status.levels),
                    None,
                ),
                5 => column.typed::<ByteArrayType>().write_batch(
                    &c.redirect.values,
                    Some(&c.redirect.levels),
                    None,
                ),
                6 => column.typed::<ByteArrayType>().write_batch(
                    &c.content_type.values,
                    Some(&c.content_type.levels),
                    None,
                ),
                7 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.body_kind, None, None),
                8 => column
                    .typed::<Int64Type>()
                    .write_batch(&c.bytes, None, None),
                9 => column.typed::<BoolType>().write_batch(&c.cut, None, None),
                10 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.agent, None, None),
                11 => column.typed::<BoolType>().write_batch(&c.named, None, None),
                12 => column
                    .typed::<ByteArrayType>()
                    .write_batch(&c.reach, None, None),
                13 => column.typed::<DoubleType>().write_batch(
                    &c.crawl_delay.values,
                    Some(&c.crawl_delay.levels),
                    None,
                ),
                14 => column
                    .typed::<Int32Type>()
                    .write_batch(&c.sitemaps, None, None),
                i if i < USAGE + 4 => {
                    column
                        .typed::<BoolType>()
                        .write_batch(&c.signals[i - USAGE], None, None)
                }
                i if i < USAGE + 11 => column.typed::<ByteArrayType>().write_batch(
                    &c.outcomes[i - USAGE - 4],
                    None,
                    None,
                ),
                _ => column.typed::<ByteArrayType>().write_batch(
                    &c.contradiction.values,
                    Some(&c.contradiction.levels),
                    None,
                ),
            };
            written.map_err(parquet_error)?;
            column.close().map_err(parquet_error)?;
            index += 1;
        }
        group.close().map_err(parquet_error)?;
        Ok(())
    }

    /// Writes the last row group and the footer.
    pub(crate) fn finish(mut self) -> Result<(), CliError> {
        self.flush()?;
        let mut out = self.writer.into_inner().map_err(parquet_error)?;
        out.flush().map_err(crate::output::write_error)
    }
}
