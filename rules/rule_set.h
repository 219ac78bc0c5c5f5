// Rules: read -> compile -> evaluate over a FactSet (see DESIGN.md "Rules are data").
#pragma once

#include "core/fact_set.h"
#include "core/finding.h"
