#include "analyzers/analyzer.h"
