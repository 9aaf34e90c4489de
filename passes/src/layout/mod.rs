pub mod desc;
