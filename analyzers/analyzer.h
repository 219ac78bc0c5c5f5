// Analyzers read what a job left behind (logs, metrics exports, GPU samples) and return
// evidence. One file per input format; formats are detected by content.
#pragma once

#include "core/evidence.h"
