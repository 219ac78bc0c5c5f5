// Redaction moved to core/redact.h (reporters and analyzers redact too); kept so probes code
// that names it still builds.
#pragma once

#include "core/redact.h"
