// nvidia-smi writes its timestamps without a zone, in the node's local time (the TZ of the
// image the job runs in), while the data runtime logs UTC. When a GPU file's samples miss the
// logs' span altogether, the zone offset that lines them up is found here: whole quarter hours
// (every zone offset in use is one), at most 14 hours, the one that puts the first sample
// nearest the first log line, as a sampler started by the job's own command is.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace feedcheck::analyzers {

/// Seconds to add to the samples' times, or nothing when they already overlap the logs'
/// span (widened by `slack_s` each side) or no offset makes them overlap it.
std::optional<double> LocalClockOffsetS(double samples_first_s, double samples_last_s,
                                        double logs_first_s, double logs_last_s,
                                        double slack_s = 600);

/// The offset from UTC a user states for nvidia-smi's clock (--gpu-utc-offset): "+05:30",
/// "-07:00", "+0530", "+5", "UTC+05:30", "UTC", "Z". Seconds east of UTC (+05:30 = 19800), or
/// nothing with `*error` saying what is accepted: a whole quarter hour from -12:00 to +14:00,
/// the zone offsets in use.
std::optional<double> ParseUtcOffsetS(std::string_view text, std::string* error);

/// "UTC+05:30" for 19800.
std::string UtcOffsetName(double offset_s);

}  // namespace feedcheck::analyzers
