#include "rules/rule_set.h"
