#include "app/outcome.h"
