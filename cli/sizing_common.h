// The command line's side of app/cluster_choice: the knowledge base loaded with its
// diagnostics printed, and the names the sizing commands use unqualified.
#pragma once

#include "app/cluster_choice.h"
#include "cli/command.h"
#include "core/knowledge_base.h"

namespace feedcheck::cli {

using app::AccountChoice;
using app::AddChoiceFacts;
using app::Declared;
using app::FlagError;
using app::NicSource;
using app::NodeChoice;
using app::ParseBytesFlag;
using app::ParseCountFlag;
using app::ParseGbpsFlag;
using app::ParseMillisecondsFlag;
using app::ParsePositiveFlag;
using app::ResolveAccount;
using app::ResolveNode;
using app::RowRef;

/// Loads data/*.yaml and the --kb files; prints diagnostics to stderr. Returns 0, or the exit
/// code (3) when a knowledge-base file is broken.
int LoadKnowledgeBase(const GlobalOptions& globals, KnowledgeBase* kb);

}  // namespace feedcheck::cli
