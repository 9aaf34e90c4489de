//! Directives that become runtime calls: `wait` (taskwait on the queues' slots and the
//! runtime's queues), `init`, `shutdown`, `set`.

use crate::openacc::ast::*;

use crate::openacc::translate::*;

impl Tr<'_> {
    pub(in crate::openacc::translate) fn wait(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let queues: Vec<Expr> = match &d.arg {
            DirectiveArg::Wait(Some(w)) => w.queues.clone(),
            _ => Vec::new(),
        };
        let cond = d.find(ClauseName::If).and_then(|c| {
            if let ClauseKind::If(e) = &c.kind {
                Some(e.text.trim().to_string())
            } else {
                None
            }
        });
        let asyncq = d.find(ClauseName::Async).map(|c| {
            if let ClauseKind::Async(q) = &c.kind {
                q.clone()
            } else {
                None
            }
        });
        // Two halves: the async constructs of the queues are OpenMP tasks (a taskwait, or a task
        // ordered by depend), and what the acc_*_async routines put on the queues' device queues
        // is waited for by the runtime (`__ptxrt_acc_wait_*`).
        self.need_wait_fn = true;
        let mut body = Vec::new();
        let deps: Vec<String> = queues.iter().map(|q| self.queue(Some(q))).collect();
        let args: Vec<String> = queues
            .iter()
            .map(|q| format!("(int)({})", q.text.trim()))
            .collect();
        match asyncq {
            Some(q) if !deps.is_empty() => {
                // The waiting goes on queue q: an empty task ordered after the queues and before
                // q's next work; q's device queue waits (on the device) for theirs.
                let out = self.queue(q.as_ref());
                let r = async_arg(q.as_ref());
                let mut cl: Vec<OmpClause> = deps
                    .iter()
                    .filter(|x| **x != out)
                    .map(|x| OmpClause::Depend(DependType::In, x.clone()))
                    .collect();
                cl.push(OmpClause::Depend(DependType::InOut, out));
                body.push(OmpDirective::new(OmpConstruct::Task, cl).line());
                body.push("{}".into());
                body.push(
                    args.iter()
                        .map(|a| format!("__ptxrt_acc_wait_queue_async({a}, {r});"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
            Some(q) => {
                // wait async(q) without queues: q waits for every queue. The host waits for every
                // async construct (OpenMP cannot order a task after all 64 queue slots cheaply),
                // q's device queue for every device queue.
                let r = async_arg(q.as_ref());
                body.push(OmpDirective::new(OmpConstruct::Taskwait, vec![]).line());
                body.push(format!("__ptxrt_acc_wait_all_queues_async({r});"));
            }
            None if deps.is_empty() => {
                body.push(OmpDirective::new(OmpConstruct::Taskwait, vec![]).line());
                body.push("__ptxrt_acc_wait_all_queues();".into());
            }
            None => {
                let cl = deps
                    .iter()
                    .map(|x| OmpClause::Depend(DependType::InOut, x.clone()))
                    .collect();
                body.push(OmpDirective::new(OmpConstruct::Taskwait, cl).line());
                body.push(
                    args.iter()
                        .map(|a| format!("__ptxrt_acc_wait_queue({a});"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        let mut lines = vec![match cond {
            Some(c) => format!("if ({c}) {{"),
            None => "{".to_string(),
        }];
        lines.extend(body);
        lines.push("}".into());
        self.replace_pragma(i, lines);
    }

    pub(in crate::openacc::translate) fn runtime_call(&mut self, i: usize) {
        let d = self.prs[i].dir.clone();
        let dev_type = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::DeviceType(v) => v.first().cloned(),
            _ => None,
        });
        let ty = match dev_type {
            Some(DeviceTypeName::Named(n)) => self.device_type_value(&n),
            _ => self.device_type_value("default"),
        };
        let num = d.clauses.iter().find_map(|c| match &c.kind {
            ClauseKind::DeviceNum(e) => Some(e.text.trim().to_string()),
            _ => None,
        });
        let mut stmts = Vec::new();
        match d.kind {
            // With device_num, only that device (OpenACC 3.3, 2.14.1-2: the current device
            // stays; `set` is what changes it).
            DirectiveKind::Init => stmts.push(match &num {
                Some(n) => format!("acc_init_device({n}, {ty});"),
                None => format!("acc_init({ty});"),
            }),
            DirectiveKind::Shutdown => stmts.push(match &num {
                Some(n) => format!("acc_shutdown_device({n}, {ty});"),
                None => format!("acc_shutdown({ty});"),
            }),
            _ => {
                if d.has(ClauseName::DeviceType) {
                    stmts.push(format!("acc_set_device_type({ty});"));
                }
                if let Some(n) = &num {
                    stmts.push(format!("acc_set_device_num({n}, {ty});"));
                }
                if let Some(c) = d.find(ClauseName::DefaultAsync) {
                    if let ClauseKind::DefaultAsync(e) = &c.kind {
                        stmts.push(format!("acc_set_default_async({});", e.text.trim()));
                    }
                }
            }
        }
        // Every statement is a call of the OpenACC API (acc_init, acc_set_device_type…).
        if !self.has_openacc_h && !stmts.is_empty() {
            self.need_acc_api = true;
        }
        let cond = d.find(ClauseName::If).and_then(|c| {
            if let ClauseKind::If(e) = &c.kind {
                Some(e.text.trim().to_string())
            } else {
                None
            }
        });
        let line = match cond {
            Some(c) => format!("if ({c}) {{ {} }}", stmts.join(" ")),
            None => format!("{{ {} }}", stmts.join(" ")),
        };
        self.replace_pragma(i, vec![line]);
    }

    pub(in crate::openacc::translate) fn device_type_value(&self, n: &str) -> String {
        let name = n.trim_start_matches("acc_device_");
        let known = ["none", "default", "host", "not_host", "nvidia"];
        let name = if known.contains(&name) {
            name
        } else if name == "multicore" {
            "host"
        } else {
            "not_host"
        };
        if self.has_openacc_h {
            format!("acc_device_{name}")
        } else {
            // openacc.h's numbering (the one nvc uses).
            let v = match name {
                "none" => 0,
                "default" => 1,
                "host" => 2,
                "not_host" => 3,
                _ => 4,
            };
            format!("{v} /* acc_device_{name} */")
        }
    }
}
